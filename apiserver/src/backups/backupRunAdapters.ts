import type { BackupSide, OperatorAdapter } from '../adapters/types';

/** An adapter whose operator has backup objects. */
export type AdapterWithBackups = OperatorAdapter & { backups: BackupSide };

export const hasBackups = (adapter: OperatorAdapter): adapter is AdapterWithBackups =>
  adapter.backups !== undefined;

const sides = new WeakMap<OperatorAdapter, AdapterWithBackups>();

/**
 * Each backup side as the store's informers see an adapter: its backup kinds are the "source"
 * kinds, the Jobs they own the related ones. The store's machinery (informers, resourceVersion
 * order, history, late changes) is the instances'; only the projection differs (projectBackup),
 * which finds the real adapter through {@link backupAdapterOf}.
 */
export function backupRunAdapters(adapters: readonly OperatorAdapter[]): OperatorAdapter[] {
  return adapters.filter(hasBackups).map(adapter => {
    const side = adapter.backups;
    const runs: OperatorAdapter = {
      id: adapter.id,
      engine: adapter.engine,
      operator: adapter.operator,
      capabilityLevel: adapter.capabilityLevel,
      versions: [],
      kinds: side.kinds,
      relatedTypes: side.relatedTypes,
      relatedRefs: (source, kind) => side.relatedRefs(source, kind),
      project: () => {
        throw new Error(`${adapter.id}: backup runs are projected by projectBackup`);
      },
    };
    sides.set(runs, adapter);
    return runs;
  });
}

/** The adapter a backup-run adapter of {@link backupRunAdapters} stands for. */
export function backupAdapterOf(runs: OperatorAdapter): AdapterWithBackups {
  const adapter = sides.get(runs);
  if (!adapter) throw new Error(`${runs.id} is not a backup-run adapter`);
  return adapter;
}
