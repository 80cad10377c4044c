import { readdirSync } from 'node:fs';
import path from 'node:path';
import { loadCompactCrds } from '@internal/kube-emulator';
import { OPERATORS_DIR, readManifests, type Manifest } from '../cluster/upstream';

let cached: Manifest[] | undefined;

/**
 * The operators' own CRDs (../shared/operators/<operator>/crds) for the kinds the emulator's
 * operators run, in place of the compact ones the demo ships: the suites that drive the whole
 * system meet the pruning, defaults and validation a real cluster applies to what we write.
 */
export function upstreamCrds(): Manifest[] {
  if (cached) return structuredClone(cached);
  const wanted = new Set(loadCompactCrds().map(c => c.metadata.name as string));
  const found = readdirSync(OPERATORS_DIR).flatMap(operator => {
    const dir = path.join(operator, 'crds');
    let files: string[];
    try {
      files = readdirSync(path.join(OPERATORS_DIR, dir));
    } catch {
      return [];
    }
    return files
      .filter(f => f.endsWith('.yaml'))
      .flatMap(f => readManifests(path.join(dir, f)))
      .filter(m => m.kind === 'CustomResourceDefinition' && wanted.has(m.metadata?.name));
  });
  const missing = [...wanted].filter(n => !found.some(c => c.metadata.name === n));
  if (missing.length) throw new Error(`No upstream CRD for ${missing.join(', ')} in ${OPERATORS_DIR}`);
  cached = found;
  return structuredClone(found);
}
