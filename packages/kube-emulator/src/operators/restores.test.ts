import { describe, expect, it } from '@jest/globals';
import type { StoredObject } from '../store/types';
import { upstreamErrors } from './__testutils__/upstream';
import { withRecovery } from './cloudnative-pg/recovery';
import { withRestore } from './mariadb-operator/restore';
import { FAIL_RESTORE_ANNOTATION } from './restoreFate';
import type { Observation } from './types';

const NOW = '2026-07-01T10:00:00Z';
const obs = (stage: Observation['stage'], memo: Record<string, unknown>): Observation =>
  ({ stage, sets: [], desiredReplicas: 1, readyReplicas: stage === 'ready' ? 1 : 0, generation: 1, now: NOW, createTime: NOW, memo }) as Observation;
const object = (apiVersion: string, kind: string, spec: Record<string, unknown>, annotations?: Record<string, string>): StoredObject =>
  ({ apiVersion, kind, metadata: { name: 'copy', namespace: 'team-a', uid: 'u', ...(annotations && { annotations }) }, spec }) as unknown as StoredObject;

describe('emulated restores', () => {
  it('mariadb-operator: nothing until the StatefulSet is ready, then RestoreBackup rounds, then BackupRestored=True; statuses fit the MariaDB CRD', () => {
    let cr = object('k8s.mariadb.com/v1alpha1', 'MariaDB', { bootstrapFrom: { backupRef: { name: 'b1' } } });
    const memo = {};
    const running = { conditions: [{ type: 'Ready', status: 'True', reason: 'StatefulSetReady', message: 'Running', lastTransitionTime: NOW }], replicas: 1 };
    const provisioning = { conditions: [{ type: 'Ready', status: 'False', reason: 'StatefulSetNotReady', message: 'Not ready', lastTransitionTime: NOW }] };
    expect(withRestore(cr, obs('provisioning', memo), provisioning)).toEqual(provisioning);
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const status = withRestore(cr, obs('ready', memo), running)!;
      expect(upstreamErrors({ ...cr, status }, { group: 'k8s.mariadb.com', plural: 'mariadbs', version: 'v1alpha1' }, 'status')).toEqual([]);
      const ready = status.conditions.find((c: any) => c.type === 'Ready');
      const restored = status.conditions.find((c: any) => c.type === 'BackupRestored');
      seen.push(`${ready.reason}/${restored.status} ${restored.message}`);
      cr = { ...cr, status } as StoredObject;
    }
    expect(seen).toEqual([
      'RestoreBackup/False Restoring backup',
      'RestoreBackup/False Restoring backup',
      'StatefulSetReady/True Restored backup',
      'StatefulSetReady/True Restored backup',
    ]);
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
});
