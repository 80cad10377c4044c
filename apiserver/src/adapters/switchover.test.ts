import { describe, expect, it } from '@jest/globals';
import type { DatabaseMember } from '@internal/plugin-databases-common';
import { describeCause, type FieldCause } from '../writes/FieldCause';
import { emptyLookup } from './__testUtils__/schemaDerivedFixtures';
import { cloudnativePgAdapter } from './cloudnative-pg/adapter';
import { mariadbOperatorAdapter } from './mariadb-operator/adapter';
import { mysqlOperatorAdapter } from './mysql-operator/adapter';
import { redisOperatorAdapter } from './redis-operator/adapter';
import type { KubeObject, OperatorAdapter } from './types';

/**
 * spec.primary through each adapter's update path (built from the CRDs' documented fields:
 * mariadb-operator's spec.replication.primary.podIndex, CloudNativePG's status.targetPrimary as
 * kubectl cnpg promote writes it; the objects here are derived from those schemas).
 */
const members = (prefix: string, n: number, from = 0, notReady: number[] = []): DatabaseMember[] =>
  Array.from({ length: n }, (_, i) => ({ name: `${prefix}-${i + from}`, role: i === 0 ? 'primary' : 'replica', ready: !notReady.includes(i + from) }));

type Result = { object?: KubeObject; causes?: FieldCause[] };

function switchTo(adapter: OperatorAdapter, current: KubeObject, primary: string, listed?: DatabaseMember[]): Result {
  const kind = adapter.kinds.find(k => k.kind === current.kind) ?? adapter.kinds[0];
  const previous = adapter.project(current, kind, emptyLookup).spec;
  return adapter.write!.applyUpdate(current, { ...previous, primary }, previous, { members: listed, now: '2026-12-04T20:00:00.000Z' });
}
const causes = (r: Result) => (r.causes ?? []).map(describeCause);

const mariadb = (spec: Record<string, unknown>, status: Record<string, unknown> = { currentPrimary: 'db-0', currentPrimaryPodIndex: 0 }): KubeObject => ({
  apiVersion: 'k8s.mariadb.com/v1alpha1',
  kind: 'MariaDB',
  metadata: { name: 'db', namespace: 'team-a', generation: 1 },
  spec: { image: 'mariadb:11.4', replicas: 3, ...spec },
  status,
});
const cluster = (instances: number, status: Record<string, unknown> = { phase: 'Cluster in healthy state', currentPrimary: 'pg-1', targetPrimary: 'pg-1' }): KubeObject => ({
  apiVersion: 'postgresql.cnpg.io/v1',
  kind: 'Cluster',
  metadata: { name: 'pg', namespace: 'team-a', generation: 1 },
  spec: { instances },
  status,
});
const projected = (adapter: OperatorAdapter, o: KubeObject) => adapter.project(o, adapter.kinds.find(k => k.kind === o.kind)!, emptyLookup);

describe('spec.primary: a switchover where the operator has one', () => {
  it('mariadb-operator replication: the primary pod index moves; the instance is Updating (Switchover) until the operator reports it', () => {
    const current = mariadb({ replication: { enabled: true, primary: { autoFailover: true } } });
    const result = switchTo(mariadbOperatorAdapter, current, 'db-2', members('db', 3));
    expect(causes(result)).toEqual([]);
    expect(result.object?.spec?.replication).toEqual({ enabled: true, primary: { autoFailover: true, podIndex: 2 } });
    // nothing else of the object changes
    expect({ ...result.object, spec: { ...result.object!.spec, replication: current.spec!.replication } }).toEqual(current);
    const asked = projected(mariadbOperatorAdapter, result.object!);
    expect(asked.spec.primary).toBe('db-2');
    expect(asked.status).toMatchObject({ phase: 'Updating', reason: 'Switchover', message: "Switching primary to 'db-2'" });
    // the operator reports it: Ready=False SwitchPrimary, then the new primary
    const switching = { ...result.object!, status: { ...current.status, conditions: [{ type: 'Ready', status: 'False', reason: 'SwitchPrimary', message: "Switching primary to 'db-2'" }] } };
    expect(projected(mariadbOperatorAdapter, switching).status).toMatchObject({ phase: 'Updating', reason: 'Switchover' });
    const done = { ...result.object!, status: { currentPrimary: 'db-2', currentPrimaryPodIndex: 2, replicas: 3, conditions: [{ type: 'Ready', status: 'True', reason: 'StatefulSetReady', message: 'Running' }] } };
    expect(projected(mariadbOperatorAdapter, done).status).toMatchObject({ phase: 'Ready' });
  });

  it('CloudNativePG: the status patch kubectl cnpg promote writes (targetPrimary, its timestamp, phase and reason)', () => {
    const current = cluster(3);
    const result = switchTo(cloudnativePgAdapter, current, 'pg-3', members('pg', 3, 1));
    expect(causes(result)).toEqual([]);
    expect(result.object?.spec).toEqual(current.spec);
    expect(result.object?.status).toEqual({
      ...current.status,
      targetPrimary: 'pg-3',
      targetPrimaryTimestamp: '2026-12-04T20:00:00.000Z',
      phase: 'Switchover in progress',
      phaseReason: 'Switching over to pg-3',
    });
    const asked = projected(cloudnativePgAdapter, result.object!);
    expect(asked.spec.primary).toBe('pg-3');
    expect(asked.status).toMatchObject({ phase: 'Updating', reason: 'Switchover' });
    // the failover marker is no member's name
    expect(projected(cloudnativePgAdapter, cluster(3, { phase: 'Failing over', currentPrimary: 'pg-1', targetPrimary: 'pending' })).spec.primary).toBeUndefined();
  });

  it.each([
    ['mariadb-operator Galera', mariadbOperatorAdapter, mariadb({ galera: { enabled: true } }), 'db-1', members('db', 3), 'spec.primary: Forbidden: every member of a Galera cluster takes writes: there is no primary to switch over (mariadb-operator picks the pod behind its -primary Service itself)'],
    ['a standalone MariaDB', mariadbOperatorAdapter, mariadb({ replicas: 1 }, {}), 'db-1', members('db', 1), 'spec.primary: Forbidden: a standalone MariaDB has one member: there is no other to switch over to'],
    ['a single-instance PostgreSQL', cloudnativePgAdapter, cluster(1), 'pg-2', members('pg', 1, 1), 'spec.primary: Forbidden: a single-instance cluster has no replica to promote: scale it to 2 or more instances first'],
    ['a PostgreSQL failing over', cloudnativePgAdapter, cluster(3, { phase: 'Failing over', currentPrimary: 'pg-1', targetPrimary: 'pending' }), 'pg-2', members('pg', 3, 1), 'spec.primary: Forbidden: the operator is failing over: it is choosing the new primary itself'],
    ['a member that does not exist', cloudnativePgAdapter, cluster(3), 'pg-9', members('pg', 3, 1), 'spec.primary: Unsupported value: "pg-9": supported values: "pg-1", "pg-2", "pg-3"'],
    ['a member that is not ready', mariadbOperatorAdapter, mariadb({ replication: { enabled: true } }), 'db-2', members('db', 3, 0, [2]), 'spec.primary: Forbidden: member db-2 is not ready: only a ready member can take over as primary'],
    ['no members listed yet', mariadbOperatorAdapter, mariadb({ replication: { enabled: true } }), 'db-2', undefined, 'spec.primary: Forbidden: the instance lists no members yet (status.members): switch over once it does'],
    ['InnoDB Cluster through its CRD', mysqlOperatorAdapter, { apiVersion: 'mysql.oracle.com/v2', kind: 'InnoDBCluster', metadata: { name: 'my', namespace: 'team-a', generation: 1 }, spec: { instances: 3, secretName: 'my-root' } }, 'my-1', members('my', 3), 'spec.primary: Forbidden: mysql-operator has no switchover an API client can ask for: its members choose their primary themselves'],
    ['a Redis cluster', redisOperatorAdapter, { apiVersion: 'redis.redis.opstreelabs.in/v1beta2', kind: 'RedisCluster', metadata: { name: 'rc', namespace: 'team-a', generation: 1 }, spec: { clusterSize: 3 } }, 'rc-leader-1', members('rc-leader', 3), 'spec.primary: Forbidden: redis-operator has no switchover an API client can ask for: its members choose their primary themselves'],
  ])('refused for %s, with every cause naming spec.primary', (_what, adapter, current, to, listed, message) => {
    const result = switchTo(adapter, current, to, listed);
    expect(result.object).toBeUndefined();
    expect(causes(result)).toEqual([message]);
  });

  it('mariadb-operator: a switchover away from a primary whose pod is not ready is a failover: Degraded, reason FailingOver, until done', () => {
    const failing = mariadb({ replication: { enabled: true, primary: { podIndex: 1 } } }, {
      currentPrimary: 'db-0',
      currentPrimaryPodIndex: 0,
      conditions: [{ type: 'Ready', status: 'False', reason: 'SwitchPrimary', message: "Switching primary to 'db-1'" }],
    });
    const pod = (name: string, ready: boolean) => ({ metadata: { name, namespace: 'team-a' }, status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } });
    const lookup = (primaryReady: boolean | undefined) => ({
      get: (ref: { name: string }) => {
        if (ref.name !== 'db-0') return pod(ref.name, true);
        return primaryReady === undefined ? undefined : pod('db-0', primaryReady);
      },
    });
    const kind = mariadbOperatorAdapter.kinds[0];
    expect(mariadbOperatorAdapter.project(failing, kind, lookup(false)).status).toMatchObject({
      phase: 'Degraded',
      reason: 'FailingOver',
      message: "The primary db-0 is not ready: Switching primary to 'db-1'",
    });
    // the primary's pod ready: a switchover the owner asked for
    expect(mariadbOperatorAdapter.project(failing, kind, lookup(true)).status).toMatchObject({ phase: 'Updating', reason: 'Switchover' });
    // not seen: no more than the operator says
    expect(mariadbOperatorAdapter.project(failing, kind, lookup(undefined)).status).toMatchObject({ phase: 'Updating', reason: 'Switchover' });
  });

  it('an unchanged spec.primary asks for nothing (a re-applied manifest is no switchover)', () => {
    const current = mariadb({ replication: { enabled: true, primary: { podIndex: 1 } } }, { currentPrimary: 'db-1', currentPrimaryPodIndex: 1 });
    const previous = projected(mariadbOperatorAdapter, current).spec;
    expect(previous.primary).toBe('db-1');
    const result: Result = mariadbOperatorAdapter.write!.applyUpdate(current, { ...previous }, previous, {});
    expect(result.object).toEqual(current);
  });
});
