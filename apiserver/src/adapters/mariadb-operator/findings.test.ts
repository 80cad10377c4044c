import { describe, it, expect } from '@jest/globals';
import type { DatabaseInstance } from '@internal/plugin-databases-common';
import { mariadbFindings } from './findings';

// status.galeraRecovery as the v1alpha1 CRD schema describes it; derived, not captured
const mariadb = (galeraRecovery?: Record<string, unknown>) => ({
  apiVersion: 'k8s.mariadb.com/v1alpha1',
  kind: 'MariaDB',
  metadata: { name: 'db', namespace: 'team-a' },
  spec: {},
  status: galeraRecovery ? { galeraRecovery } : {},
});
const instance = {} as DatabaseInstance;

describe('mariadbFindings', () => {
  it('no recovery is no finding', () => {
    expect(mariadbFindings(mariadb(), instance)).toEqual([]);
  });

  it('an empty recovery: no member reported yet, nobody to bootstrap', () => {
    const [f] = mariadbFindings(mariadb({}), instance);
    expect(f.message).toBe(
      'Galera is recovering the cluster after it lost quorum. Members: none reported yet. No member is bootstrapping yet.',
    );
    expect(f.hint).toBe(
      `This usually settles by itself. If it is stuck (no bootstrap member after spec.galera.recovery.clusterBootstrapTimeout, or the bootstrap pod never gets ready), bootstrap by hand from the member with the highest seqno: kubectl patch mariadb -n team-a db --type=merge -p '{"spec":{"galera":{"recovery":{"forceClusterBootstrapInPod":"<pod>"}}}}', and unset it once the cluster is Ready. Any other member loses the transactions it lacks.`,
    );
    expect(f.objects).toEqual([
      {
        apiVersion: 'k8s.mariadb.com/v1alpha1',
        kind: 'MariaDB',
        name: 'db',
        namespace: 'team-a',
      },
    ]);
  });

  it('members from both maps, sorted; the recovered seqno wins over grastate.dat; the highest is named', () => {
    const [f] = mariadbFindings(
      mariadb({
        state: {
          'db-1': {
            safeToBootstrap: true,
            seqno: 40,
            uuid: 'u',
            version: '2.1',
          },
          'db-0': {
            safeToBootstrap: false,
            seqno: -1,
            uuid: 'u',
            version: '2.1',
          },
        },
        recovered: {
          'db-0': { seqno: 42, uuid: 'u' },
          'db-2': { seqno: 7, uuid: 'u' },
        },
      }),
      instance,
    );
    expect(f.message).toBe(
      'Galera is recovering the cluster after it lost quorum. Members: db-0: seqno 42 (grastate.dat -1), safe_to_bootstrap 0; db-1: seqno 40, safe_to_bootstrap 1; db-2: seqno 7, safe_to_bootstrap ?. No member is bootstrapping yet; the one with the highest seqno is db-0.',
    );
    expect(f.hint).toContain('from the member with the highest seqno (db-0):');
    expect(f.hint).toContain('"forceClusterBootstrapInPod":"db-0"');
    expect(f.objects.map(o => `${o.apiVersion} ${o.kind}/${o.name}`)).toEqual([
      'k8s.mariadb.com/v1alpha1 MariaDB/db',
      'v1 Pod/db-0',
      'v1 Pod/db-1',
      'v1 Pod/db-2',
    ]);
  });

  it('a seqno of 0 still beats an unknown one (-1 stands for none)', () => {
    const [f] = mariadbFindings(
      mariadb({ state: { 'db-0': { seqno: -1 }, 'db-1': { seqno: 0 } } }),
      instance,
    );
    expect(f.message).toContain('the one with the highest seqno is db-1');
  });

  it('a bootstrap without a time', () => {
    const [f] = mariadbFindings(
      mariadb({ bootstrap: { pod: 'db-2' } }),
      instance,
    );
    expect(f.message).toContain(
      'The operator bootstraps the cluster from db-2.',
    );
  });
});
