import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';

// The emulator runs from source (package main is src/index.ts), so the files are found beside it.
// eslint-disable-next-line no-restricted-syntax
const SOURCE_DIR = __dirname;

/**
 * Where the compact CRD YAML files live. Resolved from this source file so it works under jest and
 * under `node --require @backstage/cli-node/config/nodeTransform.cjs src/main.ts` alike (both run
 * from `src/`); a build output one level deeper is tried as well.
 */
export function compactCrdsDir(): string {
  const candidates = [
    path.resolve(SOURCE_DIR, '../../crds'),
    path.resolve(SOURCE_DIR, '../../../crds'),
  ];
  const found = candidates.find(dir =>
    fs.existsSync(path.join(dir, 'mariadb-operator.yaml')),
  );
  if (!found) {
    throw new Error(
      `Compact CRDs not found; looked in ${candidates.join(', ')}`,
    );
  }
  return found;
}

/**
 * The project's own compact CustomResourceDefinitions for every emulated operator (one object per CRD,
 * nine today), read from `packages/kube-emulator/crds/*.yaml` at call time.
 */
export function loadCompactCrds(
  dir: string = compactCrdsDir(),
): Record<string, any>[] {
  return fs
    .readdirSync(dir)
    .filter(file => file.endsWith('.yaml'))
    .sort()
    .flatMap(file =>
      YAML.parseAllDocuments(fs.readFileSync(path.join(dir, file), 'utf8'))
        .map(doc => doc.toJS())
        .filter(obj => obj && obj.kind === 'CustomResourceDefinition'),
    );
}
