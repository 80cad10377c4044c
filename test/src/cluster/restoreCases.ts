import { eventually } from '../support/eventually';
import type { Kubectl } from './Kubectl';

const GROUP = 'dbaas.platform.dev';
const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/** What the restore case saw, for the conformance case to check. */
export interface RestoreSeen {
  /** The CloudNativePG Cluster the create wrote. */
  operatorObject: Record<string, any>;
  /** The instance as created (no status yet), and after the suite wrote each status. */
  created: Record<string, any>;
  restoring: { phase: string; reason?: string; message?: string };
  ready: { phase: string; reason?: string };
}

/**
 * A restore on a cluster where no operator runs, with CloudNativePG: the suite writes a completed
 * Backup (as the instance manager does, api/v1/backup_types.go), creates a DatabaseInstance with
 * `spec.restoreFrom.backup`, then plays the operator on the Cluster it wrote: the first primary
 * being created by the recovery Job ("Setting up primary", internal/controller/cluster_create.go)
 * must read Provisioning/Restoring, the healthy phase Ready.
 */
export async function runRestore(kubectl: Kubectl, ns: string, sourceInstance: string): Promise<RestoreSeen> {
  const backup = 'conf-restore-src';
  const name = 'conf-restored';
  await kubectl.ok(
    ['create', '-f', '-'],
    JSON.stringify({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Backup',
      metadata: { name: backup, namespace: ns },
      spec: { cluster: { name: sourceInstance }, method: 'barmanObjectStore' },
    }),
  );
  await kubectl.ok([
    'patch', 'backups.postgresql.cnpg.io', backup, '-n', ns, '--subresource=status', '--type=merge', '-p',
    JSON.stringify({ status: { phase: 'completed', method: 'barmanObjectStore', startedAt: '2026-12-01T10:00:00Z', stoppedAt: '2026-12-01T10:01:30Z', backupId: '20261201T100000', destinationPath: 's3://backups/' } }),
  ]);
  await eventually(async () => {
    const got = await kubectl.json(['get', 'dbb', backup, '-n', ns]);
    return got.status?.phase === 'Succeeded' ? got : undefined;
  }, `DatabaseBackup ${backup} Succeeded`);

  await kubectl.ok(
    ['create', '-f', '-'],
    JSON.stringify({
      apiVersion: `${GROUP}/v1alpha1`,
      kind: 'DatabaseInstance',
      metadata: { name, namespace: ns },
      spec: { engine: 'postgresql', storage: { size: '1Gi' }, restoreFrom: { backup } },
    }),
  );
  const created = await kubectl.json(['get', 'dbi', name, '-n', ns]);
  const operatorObject = await kubectl.json(['get', 'clusters.postgresql.cnpg.io', name, '-n', ns]);
  const writeStatus = (status: Record<string, unknown>) =>
    kubectl.ok(['patch', 'clusters.postgresql.cnpg.io', name, '-n', ns, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status })]);
  const phaseOf = (wanted: string) =>
    eventually(async () => {
      const got = await kubectl.json(['get', 'dbi', name, '-n', ns]);
      return got.status?.phase === wanted ? got.status : undefined;
    }, `DatabaseInstance ${name} ${wanted}`);

  const notReady = { type: 'Ready', status: 'False', reason: 'ClusterIsNotReady', message: 'Cluster Is Not Ready', lastTransitionTime: now() };
  await writeStatus({ phase: 'Setting up primary', phaseReason: `Creating primary instance ${name}-1`, instances: 1, conditions: [notReady] });
  const restoring = await phaseOf('Provisioning');
  await writeStatus({
    phase: 'Cluster in healthy state',
    phaseReason: '',
    instances: 1,
    readyInstances: 1,
    instanceNames: [`${name}-1`],
    currentPrimary: `${name}-1`,
    targetPrimary: `${name}-1`,
    conditions: [{ type: 'Ready', status: 'True', reason: 'ClusterIsReady', message: 'Cluster is Ready', lastTransitionTime: now() }],
  });
  const ready = await phaseOf('Ready');
  await kubectl.run(['delete', 'dbi', name, '-n', ns, '--ignore-not-found']);
  await kubectl.run(['delete', 'backups.postgresql.cnpg.io', backup, '-n', ns, '--ignore-not-found']);
  return { operatorObject, created, restoring, ready };
}
