import { describe, expect, it } from '@jest/globals';
import type {
  DatabaseInstance,
  DatabasePhase,
} from '@internal/plugin-databases-common';
import {
  applyRolloutMemory,
  rolloutSignature,
  storedRollout,
  type RolloutMemory,
  type StoredRollout,
} from './rolloutMemory';

const at = (
  phase: DatabasePhase | undefined,
  reason: string,
  replicas = 3,
  uid = 'u-1',
): DatabaseInstance => ({
  apiVersion: 'dbaas.platform.dev/v1alpha1',
  kind: 'DatabaseInstance',
  metadata: { name: 'orders', namespace: 'team-a', uid },
  spec: { engine: 'mariadb', topology: 'replication', replicas, version: '11.4' },
  ...(phase && {
    status: {
      phase,
      reason,
      message: 'm',
      source: { apiVersion: 'k8s.mariadb.com/v1alpha1', kind: 'MariaDB', name: 'orders', operator: 'mariadb-operator' },
      conditions: [{ type: 'Ready', status: phase === 'Ready' ? 'True' : 'False', reason }],
    },
  }),
});

/** Feeds projections in order, as the cache does, and returns the phases/reasons served. */
function serve(sequence: DatabaseInstance[], start?: RolloutMemory) {
  let memory = start;
  return sequence.map(i => {
    const out = applyRolloutMemory(memory, i);
    memory = out.memory;
    return `${out.instance.status?.phase ?? '-'}/${out.instance.status?.reason ?? '-'}/${out.instance.status?.conditions?.[0]?.reason ?? '-'}`;
  });
}

describe('applyRolloutMemory', () => {
  it('a scale of a Ready instance is Updating until Ready again, not Degraded', () => {
    expect(
      serve([
        at(undefined, ''),
        at('Ready', 'AllReplicasReady'),
        at('Degraded', 'ReplicasNotReady', 4),
        at('Provisioning', 'ReplicasNotReady', 4),
        at('Ready', 'AllReplicasReady', 4),
      ]),
    ).toEqual([
      '-/-/-',
      'Ready/AllReplicasReady/AllReplicasReady',
      'Updating/RollingOut/RollingOut',
      'Updating/ReplicasNotReady/ReplicasNotReady',
      'Ready/AllReplicasReady/AllReplicasReady',
    ]);
  });

  it('after the rollout, a replica lost with an unchanged spec is Degraded', () => {
    expect(
      serve([
        at('Ready', 'AllReplicasReady'),
        at('Degraded', 'ReplicasNotReady', 4),
        at('Ready', 'AllReplicasReady', 4),
        at('Degraded', 'ReplicasNotReady', 4),
      ]).slice(2),
    ).toEqual(['Ready/AllReplicasReady/AllReplicasReady', 'Degraded/ReplicasNotReady/ReplicasNotReady']);
  });

  it('an instance seen from creation is Provisioning (not Degraded) until first Ready', () => {
    expect(
      serve([
        at('Pending', 'AwaitingOperator'),
        at('Degraded', 'ReplicasNotReady'),
        at('Degraded', 'NotReady'),
        at('Ready', 'AllReplicasReady'),
      ]),
    ).toEqual([
      'Pending/AwaitingOperator/AwaitingOperator',
      'Provisioning/ReplicasNotReady/ReplicasNotReady',
      'Provisioning/NotReady/NotReady',
      'Ready/AllReplicasReady/AllReplicasReady',
    ]);
  });

  it.each([
    ['a data migration the operator reports', 'Updating', 'MigratingData'],
    ['a switchover the operator reports', 'Updating', 'Switchover'],
    ['a version the operator runs behind the spec', 'Updating', 'VersionRollingOut'],
    ['a health warning on a cluster the operator reports reconciled', 'Degraded', 'HealthYellow'],
  ] as const)('the memory of a creation never overrides %s', (_name, phase, reason) => {
    expect(serve([at('Pending', 'AwaitingOperator'), at(phase, reason)])).toEqual([
      'Pending/AwaitingOperator/AwaitingOperator',
      `${phase}/${reason}/${reason}`,
    ]);
  });

  it('nor, after a spec change, a health warning on a reconciled cluster', () => {
    expect(
      serve([at('Ready', 'AllReplicasReady'), at('Degraded', 'HealthYellow', 4)]),
    ).toEqual(['Ready/AllReplicasReady/AllReplicasReady', 'Degraded/HealthYellow/HealthYellow']);
  });

  it('without memory (a replica started mid-life) the objects alone decide', () => {
    expect(serve([at('Degraded', 'ReplicasNotReady', 4)])).toEqual(['Degraded/ReplicasNotReady/ReplicasNotReady']);
  });

  it('operator-reported faults are never hidden by a rollout', () => {
    expect(
      serve([
        at('Ready', 'AllReplicasReady'),
        at('Degraded', 'GaleraRecovering', 4),
        at('Failed', 'NoReplicasReady', 4),
      ]).slice(1),
    ).toEqual(['Degraded/GaleraRecovering/GaleraRecovering', 'Failed/NoReplicasReady/NoReplicasReady']);
  });

  it('memory of a deleted and re-created object (another uid) does not carry over', () => {
    const first = applyRolloutMemory(undefined, at('Ready', 'AllReplicasReady'));
    const other = applyRolloutMemory(first.memory, at('Degraded', 'ReplicasNotReady', 4, 'u-2'));
    expect(other.instance.status?.phase).toBe('Degraded');
    expect(other.memory).toEqual({ uid: 'u-2', bornWatched: false, everReady: false });
  });

  it('once Ready, an operator "initializing" again is a rollout, whatever the spec', () => {
    expect(
      serve([at('Ready', 'AllReplicasReady'), at('Provisioning', 'Initializing')]),
    ).toEqual(['Ready/AllReplicasReady/AllReplicasReady', 'Updating/Initializing/Initializing']);
  });

  describe('what the cluster keeps (a replica that saw nothing, or restarted)', () => {
    const readyAt3 = rolloutSignature(at('Ready', 'AllReplicasReady', 3));
    const fresh = (i: DatabaseInstance, stored: StoredRollout) => {
      const out = applyRolloutMemory(undefined, i, stored).instance.status!;
      return `${out.phase}/${out.reason}`;
    };

    it('a spec other than the recorded Ready one is a rollout: Updating, as on the replica that saw it', () => {
      expect(fresh(at('Degraded', 'ReplicasNotReady', 4), { readySpec: readyAt3, createdHere: true })).toBe(
        'Updating/RollingOut',
      );
    });

    it('the recorded Ready spec unchanged: a member lost is Degraded', () => {
      expect(fresh(at('Degraded', 'ReplicasNotReady', 3), { readySpec: readyAt3, createdHere: true })).toBe(
        'Degraded/ReplicasNotReady',
      );
    });

    it('an operator "initializing" after a recorded Ready is a rollout', () => {
      expect(fresh(at('Provisioning', 'Initializing', 3), { readySpec: readyAt3, createdHere: false })).toBe(
        'Updating/Initializing',
      );
    });

    it('created through this API and never recorded Ready: still its first creation', () => {
      expect(fresh(at('Degraded', 'ReplicasNotReady', 3), { createdHere: true })).toBe('Provisioning/ReplicasNotReady');
    });

    it('adopted (created elsewhere) and never recorded Ready: the objects alone decide', () => {
      expect(fresh(at('Degraded', 'ReplicasNotReady', 3), { createdHere: false })).toBe('Degraded/ReplicasNotReady');
    });

    it('faults the operator reports are never hidden by the record', () => {
      expect(fresh(at('Degraded', 'GaleraRecovering', 4), { readySpec: readyAt3, createdHere: true })).toBe(
        'Degraded/GaleraRecovering',
      );
      expect(fresh(at('Failed', 'NoReplicasReady', 4), { readySpec: readyAt3, createdHere: true })).toBe(
        'Failed/NoReplicasReady',
      );
    });

    it('reads the record and our managed-by label off the operator object', () => {
      expect(
        storedRollout({
          metadata: {
            labels: { 'app.kubernetes.io/managed-by': 'dbaas-apiserver' },
            annotations: { 'dbaas.platform.dev/ready-spec': readyAt3 },
          },
        }),
      ).toEqual({ readySpec: readyAt3, createdHere: true });
      expect(storedRollout({ metadata: { labels: { 'app.kubernetes.io/managed-by': 'Helm' } } })).toEqual({
        createdHere: false,
      });
    });

    it('the signature is readable JSON of what a rollout changes', () => {
      expect(JSON.parse(readyAt3)).toEqual({ replicas: 3, version: '11.4', topology: 'replication' });
    });
  });
});
