import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { helmBinary, repositoryRoot } from './helmBinary';
import { RBAC_GROUP, type RbacObject } from './types';

const run = promisify(execFile);

// eslint-disable-next-line no-restricted-syntax
const SOURCE_DIR = __dirname;

/** The apiserver's Helm chart, the one `helm install` deploys (deploy/helm/dbaas-apiserver). */
export const APISERVER_CHART_DIR = path.join(
  repositoryRoot(SOURCE_DIR) ?? path.resolve(SOURCE_DIR, '../../../..'),
  'deploy/helm/dbaas-apiserver',
);

/**
 * How the emulator installs the chart: docs/install.md's `helm install dbaas … -n dbaas-system`,
 * with the ServiceAccount named `apiserver` so that it is the identity the emulator's
 * `dbaas-apiserver-token` authenticates as (system:serviceaccount:dbaas-system:apiserver).
 * cert-manager mode only spares the render the serving key pair the chart would otherwise
 * generate; no RBAC template depends on it.
 */
export const EMULATOR_CHART_INSTALL = {
  release: 'dbaas',
  namespace: 'dbaas-system',
  values: ['serviceAccount.name=apiserver', 'certManager.enabled=true'],
} as const;

export interface ChartInstall {
  release: string;
  namespace: string;
  /** `--set` arguments. */
  values: readonly string[];
}

const cache = new Map<string, Promise<RbacObject[]>>();

async function render(
  chartDir: string,
  install: ChartInstall,
): Promise<RbacObject[]> {
  const helm = helmBinary();
  const args = [
    'template',
    install.release,
    chartDir,
    '--namespace',
    install.namespace,
  ];
  for (const v of install.values) args.push('--set', v);
  let stdout: string;
  try {
    ({ stdout } = await run(helm, args, {
      maxBuffer: 16 * 1024 * 1024,
      timeout: 60_000,
    }));
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(
      `kube-emulator: helm ${args.join(' ')} failed: ${e.stderr || e.message}`,
    );
  }
  return parseAllDocuments(stdout)
    .map(d => d.toJS() as RbacObject | null)
    .filter(
      (o): o is RbacObject =>
        !!o &&
        typeof o.apiVersion === 'string' &&
        o.apiVersion.startsWith(`${RBAC_GROUP}/`),
    );
}

/**
 * Every rbac.authorization.k8s.io object the chart renders with `helm template` (ClusterRoles,
 * Roles and their bindings, whichever template holds them), from the chart's own files. A render
 * costs 60–200 ms, so each (chart, install) is rendered once per process; callers get copies.
 */
export async function renderChartRbac(
  chartDir: string = APISERVER_CHART_DIR,
  install: ChartInstall = EMULATOR_CHART_INSTALL,
): Promise<RbacObject[]> {
  const key = JSON.stringify([chartDir, install]);
  let rendered = cache.get(key);
  if (!rendered) {
    rendered = render(chartDir, install);
    cache.set(key, rendered);
    // a failure is not cached: the next start tries again (helm installed meanwhile)
    rendered.catch(() => cache.delete(key));
  }
  return structuredClone(await rendered);
}
