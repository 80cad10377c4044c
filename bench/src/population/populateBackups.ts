import type { KubeEmulator } from '@internal/kube-emulator';
import type { PopulatedInstance } from './populate';

type Json = Record<string, any>;
const kubeTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** One completed backup run of an instance, as each operator writes it (its kind, object and status). */
interface BackupShape {
  kind: { group: string; version: string; plural: string };
  object(name: string, namespace: string, instance: string): Json;
  status(started: number): Json;
}

/**
 * Completed runs as the operators leave them: mariadb-operator's Complete=True JobComplete
 * (pkg/condition/complete.go), mysql-operator's pod-written Completed status (backup_main.py),
 * CloudNativePG's completed phase (api/v1/backup_types.go). Keyed by the instance kind's `plural.group`.
 */
const SHAPES: Record<string, BackupShape> = {
  'mariadbs.k8s.mariadb.com': {
    kind: { group: 'k8s.mariadb.com', version: 'v1alpha1', plural: 'backups' },
    object: (name, namespace, instance) => ({
      apiVersion: 'k8s.mariadb.com/v1alpha1',
      kind: 'Backup',
      metadata: { name, namespace },
      spec: { mariaDbRef: { name: instance }, compression: 'gzip', storage: { persistentVolumeClaim: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } },
    }),
    status: started => ({ conditions: [{ type: 'Complete', status: 'True', reason: 'JobComplete', message: 'Success', lastTransitionTime: kubeTime(started + 90_000) }] }),
  },
  'innodbclusters.mysql.oracle.com': {
    kind: { group: 'mysql.oracle.com', version: 'v2', plural: 'mysqlbackups' },
    object: (name, namespace, instance) => ({
      apiVersion: 'mysql.oracle.com/v2',
      kind: 'MySQLBackup',
      metadata: { name, namespace },
      spec: { clusterName: instance, backupProfileName: 'dump-to-volume', addTimestampToBackupDirectory: false },
    }),
    status: started => ({
      status: 'Completed',
      startTime: kubeTime(started),
      completionTime: kubeTime(started + 90_000),
      elapsedTime: '00:01:30',
      method: 'dump-instance/volume',
      output: 'backup',
      size: '0.0123G',
    }),
  },
  'clusters.postgresql.cnpg.io': {
    kind: { group: 'postgresql.cnpg.io', version: 'v1', plural: 'backups' },
    object: (name, namespace, instance) => ({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Backup',
      metadata: { name, namespace },
      spec: { cluster: { name: instance }, method: 'barmanObjectStore' },
    }),
    status: started => ({
      phase: 'completed',
      method: 'barmanObjectStore',
      startedAt: kubeTime(started),
      stoppedAt: kubeTime(started + 90_000),
      backupId: kubeTime(started).replace(/[-:]/g, '').replace('Z', ''),
      destinationPath: 's3://backups/',
    }),
  },
};

/** Whether the instance's operator has backup objects (its runs can be written here). */
export function hasBackups(instance: PopulatedInstance): boolean {
  return `${instance.template.variant.kind.plural}.${instance.template.variant.kind.group}` in SHAPES;
}

/**
 * Writes `count` completed backup runs straight into the emulator's store (no operator runs),
 * spread round-robin over the instances whose operator has backup objects; one run a day back
 * from now per instance, each created when it started (`backdate` sets how far back the
 * emulator's clock is while it is written; 0 at the end), as the runs of a fleet are: a list of
 * runs all minutes old would be one whose every age cell changes every second. Returns how many
 * were written per namespace.
 */
export function populateBackups(
  emulator: KubeEmulator,
  instances: PopulatedInstance[],
  count: number,
  backdate?: (ms: number) => void,
): Map<string, number> {
  const { store } = emulator;
  const shapeOf = (i: PopulatedInstance) => SHAPES[`${i.template.variant.kind.plural}.${i.template.variant.kind.group}`];
  const backed = instances.filter(shapeOf);
  if (!backed.length) throw new Error('no instance of an engine with backups in the population');
  const perNamespace = new Map<string, number>();
  const now = Date.now();
  try {
    for (let n = 0; n < count; n++) {
      const instance = backed[n % backed.length];
      const run = Math.floor(n / backed.length);
      const shape = shapeOf(instance)!;
      const startedAgo = (run + 1) * 86_400_000;
      backdate?.(startedAgo);
      const created = store.create(shape.kind, shape.object(`${instance.name}-b${run}`, instance.namespace, instance.name));
      const sub = store.resource(shape.kind)?.statusSubresource ? { subresource: 'status' as const } : undefined;
      store.update(shape.kind, { ...created, status: shape.status(now - startedAgo) }, sub);
      perNamespace.set(instance.namespace, (perNamespace.get(instance.namespace) ?? 0) + 1);
    }
  } finally {
    backdate?.(0);
  }
  return perNamespace;
}
