import { describe, expect, it } from '@jest/globals';
import type { StoredObject } from '../store/types';
import { upstreamErrors } from './__testutils__/upstream';
import { withRecovery } from './cloudnative-pg/recovery';
import { JOBS } from './BackupEmulator';
import { harness, NS } from './__testutils__/harness';
import { MARIADB_KIND } from './mariadb-operator/mariadbKind';
import { MARIADB_RESTORE_KIND } from './mariadb-operator/restore';
import { INNODBCLUSTER_KIND } from './mysql-operator/mysqlOperator';
import { FAIL_RESTORE_ANNOTATION } from './restoreFate';
import type { Observation } from './types';

const NOW = '2026-07-01T10:00:00Z';
const obs = (stage: Observation['stage'], memo: Record<string, unknown>): Observation =>
  ({ stage, sets: [], desiredReplicas: 1, readyReplicas: stage === 'ready' ? 1 : 0, generation: 1, now: NOW, createTime: NOW, memo }) as Observation;
const object = (apiVersion: string, kind: string, spec: Record<string, unknown>, annotations?: Record<string, string>): StoredObject =>
  ({ apiVersion, kind, metadata: { name: 'copy', namespace: 'team-a', uid: 'u', ...(annotations && { annotations }) }, spec }) as unknown as StoredObject;

describe('emulated restores', () => {
  /**
   * A MariaDB bootstrapped from a Backup, every round of the emulator: the status before, while and
   * after its Restore runs, the Restore's own Complete condition as it changed, and whether the
   * Restore is still there at the end (current releases delete it once complete).
   */
  const bootstrap = (annotations?: Record<string, string>) => {
    const h = harness();
    h.store.create(MARIADB_KIND, {
      apiVersion: 'k8s.mariadb.com/v1alpha1',
      kind: 'MariaDB',
      metadata: { name: 'copy', namespace: NS, ...(annotations && { annotations }) },
      spec: { replicas: 1, storage: { size: '1Gi' }, bootstrapFrom: { backupRef: { name: 'b1' } } },
    });
    const trace: string[] = [];
    const restoreStates: string[] = [];
    const sub = h.store.watch(undefined, e => {
      const o = e.object as StoredObject;
      if (o.kind === 'Restore') {
        const c = ((o.status as any)?.conditions ?? []).find((x: any) => x.type === 'Complete');
        restoreStates.push(`${e.type} ${c ? `${c.status}/${c.reason}` : '-'}`);
      }
    });
    for (let i = 0; i < 40; i++) {
      h.emulator.tick();
      const status = h.get(MARIADB_KIND, 'copy').status as any;
      expect(upstreamErrors({ ...h.get(MARIADB_KIND, 'copy'), status }, { group: 'k8s.mariadb.com', plural: 'mariadbs', version: 'v1alpha1' }, 'status')).toEqual([]);
      const ready = status?.conditions?.find((c: any) => c.type === 'Ready');
      const restored = status?.conditions?.find((c: any) => c.type === 'BackupRestored');
      const line = `${ready?.reason ?? '-'}/${restored ? `${restored.status} ${restored.message}` : '-'}`;
      if (trace.at(-1) !== line) trace.push(line);
    }
    sub.stop();
    const restore = h.store.get(MARIADB_RESTORE_KIND, NS, 'copy-restore');
    return { trace, restoreStates: [...new Set(restoreStates)], restore, h };
  };

  it('mariadb-operator: nothing until the StatefulSet is ready, then a Restore <name>-restore runs its Job; once complete it is deleted and the MariaDB restored; statuses fit the CRDs', () => {
    const { trace, restoreStates, restore } = bootstrap();
    // SetRestoredBackup sets BackupRestored only: Ready follows the StatefulSet on the status reconciler's next pass
    expect(trace.slice(-3)).toEqual(['RestoreBackup/False Restoring backup', 'RestoreBackup/True Restored backup', 'StatefulSetReady/True Restored backup']);
    expect(trace.slice(0, -3).every(l => l.endsWith('/-'))).toBe(true);
    expect(restoreStates).toEqual(['ADDED -', 'MODIFIED False/JobRunning', 'MODIFIED True/JobComplete', 'DELETED True/JobComplete']);
    expect(restore).toBeUndefined();
  });

  it('mariadb-operator: a restore whose Job fails is Complete=True JobFailed and still counted as restored (the trap the apiserver reads)', () => {
    const { trace, restoreStates, h } = bootstrap({ [FAIL_RESTORE_ANNOTATION]: 'true' });
    expect(restoreStates).toEqual(['ADDED -', 'MODIFIED False/JobRunning', 'MODIFIED True/JobFailed', 'DELETED True/JobFailed']);
    expect(trace.at(-1)).toBe('StatefulSetReady/True Restored backup');
    // the Job went with its Restore (garbage collection of what it controlled)
    expect(h.store.get(JOBS, NS, 'copy-restore')).toBeUndefined();
  });

  it('CloudNativePG: a recovery told to fail sets up its primary, then is unrecoverable naming the full-recovery Job; fits the Cluster CRD', () => {
    const cr = object('postgresql.cnpg.io/v1', 'Cluster', { instances: 1, bootstrap: { recovery: { backup: { name: 'b1' } } } }, { [FAIL_RESTORE_ANNOTATION]: 'true' });
    const memo = {};
    const healthy = { phase: 'Cluster in healthy state', instances: 1, readyInstances: 1, currentPrimary: 'copy-1', conditions: [{ type: 'Ready', status: 'True', reason: 'ClusterIsReady', message: 'Cluster is Ready', lastTransitionTime: NOW }] };
    const phases = [1, 2, 3].map(() => withRecovery(cr, obs('ready', memo), healthy)!);
    expect(phases.map(s => s.phase)).toEqual(['Setting up primary', 'Setting up primary', 'Cluster is unrecoverable and needs manual intervention']);
    expect(phases[2]).toMatchObject({ phaseReason: 'Instance creation failed for the following jobs: copy-1-full-recovery', conditions: [expect.objectContaining({ type: 'Ready', status: 'False' })] });
    expect(phases[2].readyInstances).toBeUndefined();
    expect(upstreamErrors({ ...cr, status: phases[2] }, { group: 'postgresql.cnpg.io', plural: 'clusters', version: 'v1' }, 'status')).toEqual([]);
    // without the switch the recovery is the ordinary first creation
    const plain = object('postgresql.cnpg.io/v1', 'Cluster', { instances: 1, bootstrap: { recovery: { backup: { name: 'b1' } } } });
    expect(withRecovery(plain, obs('ready', {}), healthy)).toBe(healthy);
  });

  it('mysql-operator: a dump load told to fail crash-loops a container of the seed pod, no member ever becomes ready, and the InnoDBCluster stays PENDING', () => {
    const cluster = (name: string, annotations?: Record<string, string>) => ({
      apiVersion: 'mysql.oracle.com/v2',
      kind: 'InnoDBCluster',
      metadata: { name, namespace: NS, ...(annotations && { annotations }) },
      spec: { instances: 3, secretName: `${name}-root`, tlsUseSelfSigned: true, initDB: { dump: { name: 'b1', storage: { persistentVolumeClaim: { claimName: 'dumps' } }, path: 'b1' } } },
    });
    const h = harness();
    h.store.create(INNODBCLUSTER_KIND, cluster('bad', { [FAIL_RESTORE_ANNOTATION]: 'true' }));
    h.store.create(INNODBCLUSTER_KIND, cluster('good'));
    for (let i = 0; i < 40; i++) h.emulator.tick();
    const pods = { group: '', version: 'v1', plural: 'pods' };
    const seed = h.store.get(pods, NS, 'bad-0') as any;
    const crashed = seed.status.containerStatuses.find((c: any) => c.lastState?.terminated);
    expect(crashed).toMatchObject({ restartCount: 5, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 1, reason: 'Error' } } });
    expect(seed.status.conditions.find((c: any) => c.type === 'Ready').status).toBe('False');
    expect((h.get(INNODBCLUSTER_KIND, 'bad').status as any).cluster).toMatchObject({ status: 'PENDING', onlineInstances: 0 });
    expect(upstreamErrors(h.get(INNODBCLUSTER_KIND, 'bad'), { group: 'mysql.oracle.com', plural: 'innodbclusters', version: 'v2' }, 'status')).toEqual([]);
    // without the switch the same dump loads and the cluster comes ONLINE
    expect((h.get(INNODBCLUSTER_KIND, 'good').status as any).cluster.status).toBe('ONLINE');
  });
});
