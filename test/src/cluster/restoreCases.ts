import { eventually } from '../support/eventually';
import type { Kubectl } from './Kubectl';

const GROUP = 'dbaas.platform.dev';
const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/** Waits until the DatabaseBackup `backup` is Succeeded, then creates `name` restoring it. */
async function restoreOnceSucceeded(kubectl: Kubectl, ns: string, backup: string, name: string, engine: string): Promise<void> {
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
      spec: { engine, storage: { size: '1Gi' }, restoreFrom: { backup } },
    }),
  );
}

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
  await restoreOnceSucceeded(kubectl, ns, backup, name, 'postgresql');
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

/** What the failed MariaDB restore case saw. */
export interface FailedRestoreSeen {
  operatorObject: Record<string, any>;
  /** After the Restore said Complete=True JobFailed and the MariaDB BackupRestored=True, Ready=True. */
  failed: { phase: string; reason?: string; message?: string };
  /** The same after the Restore was deleted, as current releases do once it is complete. */
  afterDelete: { phase: string; reason?: string; message?: string };
  /** The MariaDB's annotations at the end (the apiserver's record). */
  annotations: Record<string, string>;
}

/**
 * A MariaDB restore that fails, on a cluster where no operator runs: the suite writes a completed
 * mariadb-operator Backup, creates a DatabaseInstance restoring it, then plays mariadb-operator
 * on the MariaDB it wrote (internal/controller/mariadb_controller.go reconcileRestore): Restoring,
 * the Restore `<name>-restore` it owns ending `Complete=True` `JobFailed` "Failed" (pkg/condition
 * SetCompleteWithJob), the MariaDB then marked BackupRestored=True and Ready=True and the Restore
 * deleted. The instance must be Failed (RestoreFailed) and stay so once the Restore is gone.
 */
export async function runFailedMariadbRestore(kubectl: Kubectl, ns: string, sourceInstance: string): Promise<FailedRestoreSeen> {
  const backup = 'conf-mdb-restore-src';
  const name = 'conf-mdb-broken';
  const restore = `${name}-restore`;
  await kubectl.ok(
    ['create', '-f', '-'],
    JSON.stringify({
      apiVersion: 'k8s.mariadb.com/v1alpha1',
      kind: 'Backup',
      metadata: { name: backup, namespace: ns },
      spec: { mariaDbRef: { name: sourceInstance }, storage: { persistentVolumeClaim: { resources: { requests: { storage: '1Gi' } }, accessModes: ['ReadWriteOnce'] } } },
    }),
  );
  await kubectl.ok([
    'patch', 'backups.k8s.mariadb.com', backup, '-n', ns, '--subresource=status', '--type=merge', '-p',
    JSON.stringify({ status: { conditions: [{ type: 'Complete', status: 'True', reason: 'JobComplete', message: 'Success', lastTransitionTime: now() }] } }),
  ]);
  await restoreOnceSucceeded(kubectl, ns, backup, name, 'mariadb');
  const operatorObject = await kubectl.json(['get', 'mariadbs.k8s.mariadb.com', name, '-n', ns]);
  const writeStatus = (conditions: Array<Record<string, string>>) =>
    kubectl.ok([
      'patch', 'mariadbs.k8s.mariadb.com', name, '-n', ns, '--subresource=status', '--type=merge', '-p',
      JSON.stringify({ status: { replicas: 1, conditions: conditions.map(c => ({ lastTransitionTime: now(), ...c })) } }),
    ]);
  const statusWhen = (check: (s: any) => boolean, what: string) =>
    eventually(async () => {
      const got = await kubectl.json(['get', 'dbi', name, '-n', ns]);
      return got.status && check(got.status) ? got.status : undefined;
    }, `DatabaseInstance ${name} ${what}`);

  const restoring = { type: 'Ready', status: 'False', reason: 'RestoreBackup', message: 'Restoring backup' };
  await writeStatus([restoring, { ...restoring, type: 'BackupRestored' }]);
  await statusWhen(s => s.reason === 'Restoring', 'Provisioning (Restoring)');
  await kubectl.ok(
    ['create', '-f', '-'],
    JSON.stringify({
      apiVersion: 'k8s.mariadb.com/v1alpha1',
      kind: 'Restore',
      metadata: {
        name: restore,
        namespace: ns,
        ownerReferences: [{ apiVersion: 'k8s.mariadb.com/v1alpha1', kind: 'MariaDB', name, uid: operatorObject.metadata.uid, controller: true, blockOwnerDeletion: true }],
      },
      spec: { mariaDbRef: { name }, backupRef: { name: backup } },
    }),
  );
  await kubectl.ok([
    'patch', 'restores.k8s.mariadb.com', restore, '-n', ns, '--subresource=status', '--type=merge', '-p',
    JSON.stringify({ status: { conditions: [{ type: 'Complete', status: 'True', reason: 'JobFailed', message: 'Failed', lastTransitionTime: now() }] } }),
  ]);
  await writeStatus([
    { type: 'Ready', status: 'True', reason: 'StatefulSetReady', message: 'Running' },
    { type: 'BackupRestored', status: 'True', reason: 'RestoreBackup', message: 'Restored backup' },
  ]);
  const failed = await statusWhen(s => s.phase === 'Failed', 'Failed');
  // the apiserver's record reaches the MariaDB before the Restore goes, as the operator deletes it
  const annotations = await eventually(async () => {
    const got = await kubectl.json(['get', 'mariadbs.k8s.mariadb.com', name, '-n', ns]);
    return got.metadata.annotations?.['dbaas.platform.dev/restore-failed'] ? got.metadata.annotations : undefined;
  }, `the failed restore recorded on MariaDB ${name}`);
  await kubectl.ok(['delete', 'restores.k8s.mariadb.com', restore, '-n', ns]);
  // a label written after the delete: once the instance shows it, the apiserver has read the delete too
  await kubectl.ok(['label', 'mariadbs.k8s.mariadb.com', name, '-n', ns, 'conformance.dbaas.platform.dev/after-restore-deleted=yes']);
  const afterDelete = await eventually(async () => {
    const got = await kubectl.json(['get', 'dbi', name, '-n', ns]);
    return got.metadata.labels?.['conformance.dbaas.platform.dev/after-restore-deleted'] === 'yes' ? got.status : undefined;
  }, `DatabaseInstance ${name} read after its Restore was deleted`);
  await kubectl.run(['delete', 'dbi', name, '-n', ns, '--ignore-not-found']);
  await kubectl.run(['delete', 'backups.k8s.mariadb.com', backup, '-n', ns, '--ignore-not-found']);
  return { operatorObject, failed, afterDelete, annotations };
}

/** What the failed dump load case saw. */
export interface FailedDumpLoadSeen {
  restoring: { phase: string; reason?: string; message?: string };
  failed: { phase: string; reason?: string; message?: string };
}

/**
 * A new InnoDB Cluster from a dump whose load fails, on a cluster where no operator runs: the
 * suite writes an InnoDBCluster with `spec.initDB.dump` and its status PENDING (the operator has
 * not created the InnoDB Cluster yet: the seed pod loads the dump first, sidecar_main.py), then
 * the seed pod `<name>-0` as kubelet shows a container that exited 1 and is restarted (the
 * sidecar, after "Error loading dump"). Restoring first, then Failed (RestoreFailed).
 */
export async function runFailedDumpLoad(kubectl: Kubectl, ns: string): Promise<FailedDumpLoadSeen> {
  const name = 'conf-mysql-bad-dump';
  const statusWhen = (check: (s: any) => boolean, what: string) =>
    eventually(async () => {
      const got = await kubectl.json(['get', 'dbi', name, '-n', ns]);
      return got.status && check(got.status) ? got.status : undefined;
    }, `DatabaseInstance ${name} ${what}`);
  await kubectl.create({
    apiVersion: 'mysql.oracle.com/v2',
    kind: 'InnoDBCluster',
    metadata: { name, namespace: ns },
    spec: {
      instances: 1,
      secretName: `${name}-root`,
      tlsUseSelfSigned: true,
      initDB: { dump: { name: 'conf-dump', storage: { persistentVolumeClaim: { claimName: 'conf-dumps' } }, path: 'conf-dump' } },
    },
  });
  const pod = `${name}-0`;
  try {
    await kubectl.patchStatus('innodbclusters.mysql.oracle.com', name, ns, { cluster: { status: 'PENDING', onlineInstances: 0, lastProbeTime: now() } });
    const restoring = await statusWhen(s => s.reason === 'Restoring', 'Provisioning (Restoring)');
    await kubectl.defaultServiceAccount(ns);
    const image = 'registry.k8s.io/pause:3.9';
    await kubectl.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: pod, namespace: ns, labels: { component: 'mysqld', tier: 'mysql', 'mysql.oracle.com/cluster': name } },
      // gated: no scheduler binds it and no kubelet rewrites the status the suite writes
      spec: { schedulingGates: [{ name: 'dbaas.platform.dev/conformance' }], containers: [{ name: 'sidecar', image }, { name: 'mysql', image }] },
    });
    const at = now();
    await kubectl.patchStatus('pod', pod, ns, {
      conditions: [{ type: 'Ready', status: 'False', reason: 'ContainersNotReady', lastTransitionTime: at }],
      containerStatuses: [
        { name: 'mysql', image, imageID: '', ready: true, started: true, restartCount: 0, state: { running: { startedAt: at } } },
        {
          name: 'sidecar', image, imageID: '', ready: false, started: false, restartCount: 2,
          state: { waiting: { reason: 'CrashLoopBackOff', message: `back-off 20s restarting failed container=sidecar pod=${pod}` } },
          lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: at, finishedAt: at } },
        },
      ],
    });
    const failed = await statusWhen(s => s.phase === 'Failed', 'Failed');
    return { restoring, failed };
  } finally {
    await kubectl.run(['delete', 'pod', pod, '-n', ns, '--grace-period=0', '--force', '--ignore-not-found']);
    await kubectl.run(['delete', 'innodbclusters.mysql.oracle.com', name, '-n', ns, '--ignore-not-found']);
  }
}
