import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import type { DatabaseMember } from '@internal/plugin-databases-common';
import { findAdapterForObject } from './registry';
import { OPERATORS_DIR, readYamlDocuments } from './__testUtils__/operatorFiles';
import type { KubeObject, RelatedLookup } from './types';

/**
 * status.members per operator and topology: operator objects from the upstream samples in
 * ../shared/operators where one names the primary or the members, pods built from the labels
 * each operator documents (every pod is derived: no sample of a pod is shipped; test names
 * say "derived pods").
 */

const sample = (file: string, patch: Partial<KubeObject> = {}): KubeObject => {
  const doc = readYamlDocuments(path.join(OPERATORS_DIR, file))[0] as KubeObject;
  return { ...doc, ...patch, metadata: { namespace: 'fixtures', ...doc.metadata, ...patch.metadata } };
};

interface PodSpec {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ready?: boolean;
  node?: string;
}

/** A pod as the kubelet reports it (core/v1), with what the operator labelled it. */
function pod(name: string, namespace: string, p: PodSpec = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels: p.labels, annotations: p.annotations, resourceVersion: '7' },
    spec: { nodeName: p.node ?? 'node-a', containers: [{ name: 'db', image: 'example' }] },
    status: {
      phase: 'Running',
      conditions: [
        { type: 'PodScheduled', status: 'True' },
        { type: 'Ready', status: p.ready === false ? 'False' : 'True', lastTransitionTime: '2026-01-01T00:00:00Z' },
      ],
    },
  };
}

/** Projects `object` with `pods` in the watch cache, kept as the cache keeps them (slimmed). */
function membersOf(object: KubeObject, pods: KubeObject[]): DatabaseMember[] | undefined {
  const found = findAdapterForObject(object.apiVersion!, object.kind!)!;
  const type = found.adapter.members!.pods;
  const cached = pods.map(p => type.slim!(p));
  const related: RelatedLookup = {
    get: ref =>
      ref.type === type ? cached.find(p => p.metadata?.name === ref.name && p.metadata?.namespace === ref.namespace) : undefined,
  };
  const refs = found.adapter.relatedRefs(object, found.kind).filter(r => r.type === type);
  // the cache is told to watch exactly the member pods it reads
  expect(refs.map(r => r.name)).toEqual(found.adapter.members!.expected(object, found.kind).map(m => m.pod));
  return found.adapter.project(object, found.kind, related).status?.members;
}

describe('status.members', () => {
  it('mariadb-operator replication: roles from status.replication.roles, hosts through <name>-internal (upstream status, derived pods)', () => {
    const object = sample('mariadb-operator/status/mariadb-replication-ready.docs.status-replication.yaml', {
      apiVersion: 'k8s.mariadb.com/v1alpha1',
      kind: 'MariaDB',
      metadata: { name: 'mariadb-repl' },
      spec: { replicas: 3, replication: { enabled: true } },
    });
    const pods = [0, 1, 2].map(i => pod(`mariadb-repl-${i}`, 'fixtures', { labels: { 'app.kubernetes.io/name': 'mariadb' }, ready: i !== 2 }));
    expect(membersOf(object, pods)).toEqual([
      { name: 'mariadb-repl-0', role: 'primary', engineRole: 'Primary', ready: true, host: 'mariadb-repl-0.mariadb-repl-internal.fixtures.svc', node: 'node-a' },
      { name: 'mariadb-repl-1', role: 'replica', engineRole: 'Replica', ready: true, host: 'mariadb-repl-1.mariadb-repl-internal.fixtures.svc', node: 'node-a' },
      { name: 'mariadb-repl-2', role: 'replica', engineRole: 'Replica', ready: false, host: 'mariadb-repl-2.mariadb-repl-internal.fixtures.svc', node: 'node-a' },
    ]);
  });

  it('mariadb-operator Galera: every node a member, currentPrimary the one behind <name>-primary; a missing pod is a member not ready (upstream status, derived pods)', () => {
    const object = sample('mariadb-operator/status/mariadb-galera-not-ready.issue-768.status.yaml', {
      apiVersion: 'k8s.mariadb.com/v1alpha1',
      kind: 'MariaDB',
      metadata: { name: 'mariadb-galera' },
      spec: { replicas: 3, galera: { enabled: true } },
    });
    const members = membersOf(object, [pod('mariadb-galera-0', 'fixtures'), pod('mariadb-galera-1', 'fixtures', { ready: false })]);
    expect(members?.map(m => [m.name, m.role, m.engineRole, m.ready])).toEqual([
      ['mariadb-galera-0', 'member', 'Primary', true],
      ['mariadb-galera-1', 'member', 'Member', false],
      ['mariadb-galera-2', 'member', 'Member', false],
    ]);
    expect(members?.[2]).not.toHaveProperty('node');
  });

  it('mariadb-operator: the primary is since the last PrimarySwitched=True (derived status)', () => {
    const object: KubeObject = {
      apiVersion: 'k8s.mariadb.com/v1alpha1',
      kind: 'MariaDB',
      metadata: { name: 'm', namespace: 'fixtures' },
      spec: { replicas: 2, replication: { enabled: true } },
      status: {
        currentPrimary: 'm-1',
        currentPrimaryPodIndex: 1,
        conditions: [{ type: 'PrimarySwitched', status: 'True', reason: 'SwitchPrimary', message: 'Switchover complete', lastTransitionTime: '2026-02-02T10:00:00Z' }],
      },
    };
    const members = membersOf(object, [pod('m-0', 'fixtures'), pod('m-1', 'fixtures')]);
    expect(members?.map(m => [m.name, m.role, m.since])).toEqual([
      ['m-0', 'replica', undefined],
      ['m-1', 'primary', '2026-02-02T10:00:00Z'],
    ]);
  });

  it('CloudNativePG: status.instanceNames, the cnpg.io/instanceRole label over currentPrimary, since currentPrimaryTimestamp, no DNS name (upstream status, derived pods)', () => {
    const object = sample('cloudnative-pg/status/cluster-healthy.argocd-fixture.yaml');
    const role = (r: string) => ({ labels: { 'cnpg.io/instanceRole': r, role: r, 'cnpg.io/podRole': 'instance' } });
    const members = membersOf(object, [
      pod('cluster-example-1', object.metadata!.namespace!, role('primary')),
      pod('cluster-example-2', object.metadata!.namespace!, role('replica')),
      pod('cluster-example-3', object.metadata!.namespace!, { ...role('replica'), node: 'node-c' }),
    ]);
    expect(members).toEqual([
      { name: 'cluster-example-1', role: 'primary', engineRole: 'primary', ready: true, node: 'node-a', since: '2025-04-25T20:44:38.190232Z' },
      { name: 'cluster-example-2', role: 'replica', engineRole: 'replica', ready: true, node: 'node-a' },
      { name: 'cluster-example-3', role: 'replica', engineRole: 'replica', ready: true, node: 'node-c' },
    ]);
  });

  it('CloudNativePG: a pod relabelled primary is the primary before currentPrimary follows; without labels currentPrimary decides (upstream status, derived pods)', () => {
    const object = sample('cloudnative-pg/status/cluster-healthy.argocd-fixture.yaml');
    const ns = object.metadata!.namespace!;
    const relabelled = membersOf(object, [
      pod('cluster-example-1', ns, { labels: { 'cnpg.io/instanceRole': 'replica' } }),
      pod('cluster-example-2', ns, { labels: { 'cnpg.io/instanceRole': 'primary' } }),
    ]);
    expect(relabelled?.filter(m => m.role === 'primary').map(m => [m.name, m.since])).toEqual([['cluster-example-2', undefined]]);
    const unlabelled = membersOf(object, [pod('cluster-example-1', ns), pod('cluster-example-2', ns)]);
    expect(unlabelled?.filter(m => m.role === 'primary').map(m => m.name)).toEqual(['cluster-example-1']);
  });

  it('MySQL InnoDB Cluster: mysql.oracle.com/cluster-role, since from membership-info, read replicas (derived object and pods: no status sample names members)', () => {
    const object: KubeObject = {
      apiVersion: 'mysql.oracle.com/v2',
      kind: 'InnoDBCluster',
      metadata: { name: 'mycluster', namespace: 'fixtures' },
      spec: { instances: 3, secretName: 'mypwds', readReplicas: [{ name: 'rr', instances: 1 }] },
    };
    const info = (role: string, status: string, at: string) =>
      JSON.stringify({ memberId: 'x', role, status, groupViewId: 'v', version: '9.1.0', lastTransitionTime: at, lastProbeTime: at, joinTime: at });
    const member = (i: number, label: string | undefined, status: string) => ({
      labels: {
        component: 'mysqld',
        'mysql.oracle.com/cluster': 'mycluster',
        'mysql.oracle.com/instance-type': 'group-member',
        ...(label ? { 'mysql.oracle.com/cluster-role': label } : {}),
      },
      annotations: { 'mysql.oracle.com/membership-info': info(label ?? 'SECONDARY', status, `2026-03-0${i + 1}T00:00:00Z`) },
      ready: status === 'ONLINE',
    });
    const members = membersOf(object, [
      pod('mycluster-0', 'fixtures', member(0, 'SECONDARY', 'ONLINE')),
      pod('mycluster-1', 'fixtures', member(1, 'PRIMARY', 'ONLINE')),
      pod('mycluster-2', 'fixtures', member(2, undefined, 'RECOVERING')),
      pod('mycluster-rr-0', 'fixtures', { labels: { component: 'mysqld', 'mysql.oracle.com/instance-type': 'read-replica' } }),
    ]);
    expect(members?.map(m => [m.name, m.role, m.engineRole, m.ready, m.host, m.since])).toEqual([
      ['mycluster-0', 'replica', 'SECONDARY', true, 'mycluster-0.mycluster-instances.fixtures.svc', '2026-03-01T00:00:00Z'],
      ['mycluster-1', 'primary', 'PRIMARY', true, 'mycluster-1.mycluster-instances.fixtures.svc', '2026-03-02T00:00:00Z'],
      ['mycluster-2', 'replica', 'RECOVERING', false, 'mycluster-2.mycluster-instances.fixtures.svc', '2026-03-03T00:00:00Z'],
      ['mycluster-rr-0', 'replica', 'READ_REPLICA', true, 'mycluster-rr-0.mycluster-rr-instances.fixtures.svc', undefined],
    ]);
  });

  it('redis-operator replication: the redis-role label, else status.masterNode; hosts through <name>-headless (upstream status, derived pods)', () => {
    const object = sample('redis-operator/status/redisreplication-ready.e2e.yaml', { spec: { clusterSize: 3 } });
    const ns = object.metadata!.namespace!;
    const byMasterNode = membersOf(object, [0, 1, 2].map(i => pod(`redis-replication-acl-pvc-${i}`, ns)));
    expect(byMasterNode?.map(m => [m.name, m.role, m.engineRole, m.host])).toEqual([
      ['redis-replication-acl-pvc-0', 'primary', 'master', `redis-replication-acl-pvc-0.redis-replication-acl-pvc-headless.${ns}.svc`],
      ['redis-replication-acl-pvc-1', 'replica', 'slave', `redis-replication-acl-pvc-1.redis-replication-acl-pvc-headless.${ns}.svc`],
      ['redis-replication-acl-pvc-2', 'replica', 'slave', `redis-replication-acl-pvc-2.redis-replication-acl-pvc-headless.${ns}.svc`],
    ]);
    // Sentinel promoted -1; the operator relabelled the pods before it rewrote masterNode
    const labels = (role: string) => ({ labels: { 'redis-role': role, redis_setup_type: 'replication' } });
    const promoted = membersOf(object, [
      pod('redis-replication-acl-pvc-0', ns, labels('slave')),
      pod('redis-replication-acl-pvc-1', ns, labels('master')),
      pod('redis-replication-acl-pvc-2', ns, labels('slave')),
    ]);
    expect(promoted?.filter(m => m.role === 'primary').map(m => m.name)).toEqual(['redis-replication-acl-pvc-1']);
  });

  it('redis-operator cluster: a master per shard among leaders and followers (upstream status, derived pods)', () => {
    const object = sample('redis-operator/status/rediscluster-ready.e2e.yaml', { spec: { clusterSize: 3 } });
    const ns = object.metadata!.namespace!;
    const name = object.metadata!.name!;
    const pods = [
      ...[0, 1, 2].map(i => pod(`${name}-leader-${i}`, ns, { labels: { 'redis-role': i === 2 ? 'slave' : 'master' } })),
      ...[0, 1, 2].map(i => pod(`${name}-follower-${i}`, ns, { labels: { 'redis-role': i === 2 ? 'master' : 'slave' } })),
    ];
    const members = membersOf(object, pods);
    expect(members?.filter(m => m.role === 'primary').map(m => m.name)).toEqual([`${name}-leader-0`, `${name}-leader-1`, `${name}-follower-2`]);
    expect(members?.[3].host).toBe(`${name}-follower-0.${name}-follower-headless.${ns}.svc`);
  });

  it('ECK: every node a member, its roles from its node-* labels or, without a pod, its node set (upstream object, derived pods)', () => {
    const object = sample('eck/status/elasticsearch-ready-green.upstream-testdata.yaml');
    const members = membersOf(object, [
      pod('testes-es-master-0', 'testns', {
        labels: { 'elasticsearch.k8s.elastic.co/node-master': 'true', 'elasticsearch.k8s.elastic.co/node-data': 'false' },
      }),
    ]);
    expect(members?.[0]).toEqual({ name: 'testes-es-master-0', role: 'member', engineRole: 'master', ready: true, host: 'testes-es-master-0.testes-es-master.testns.svc', node: 'node-a' });
    expect(members?.slice(1).map(m => [m.name, m.engineRole, m.ready])).toEqual(
      Array.from({ length: members!.length - 1 }, (_, i) => [`testes-es-di-${i}`, 'data,ingest', false]),
    );
  });

  it('RabbitMQ: <name>-server-<i>, all members, through <name>-nodes (upstream object, derived pods)', () => {
    const object = sample('rabbitmq-cluster-operator/status/rabbitmqcluster-ready.argocd-fixture.yaml');
    const members = membersOf(object, [0, 1, 2].map(i => pod(`example-rabbitmq-server-${i}`, 'example', { node: `node-${i}` })));
    expect(members?.map(m => [m.name, m.role, m.host, m.node])).toEqual([0, 1, 2].map(i => [`example-rabbitmq-server-${i}`, 'member', `example-rabbitmq-server-${i}.example-rabbitmq-nodes.example.svc`, `node-${i}`]));
  });

  it('keeps of a pod only what members are read from', () => {
    const found = findAdapterForObject('mysql.oracle.com/v2', 'InnoDBCluster')!;
    const slim = found.adapter.members!.pods.slim!(
      pod('a-0', 'ns', {
        labels: { 'mysql.oracle.com/cluster-role': 'PRIMARY', 'topology.kubernetes.io/zone': 'z1', other: 'x' },
        annotations: { 'mysql.oracle.com/membership-info': '{}', big: 'y'.repeat(1000) },
      }),
    );
    expect(slim).toEqual({
      metadata: {
        name: 'a-0',
        namespace: 'ns',
        resourceVersion: '7',
        labels: { 'mysql.oracle.com/cluster-role': 'PRIMARY', 'topology.kubernetes.io/zone': 'z1' },
        annotations: { 'mysql.oracle.com/membership-info': '{}' },
      },
      spec: { nodeName: 'node-a' },
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    });
    // what many pods have alike is one shared, frozen copy
    const other = found.adapter.members!.pods.slim!(pod('b-0', 'ns', { labels: { 'mysql.oracle.com/cluster-role': 'PRIMARY', 'topology.kubernetes.io/zone': 'z1' } }));
    expect(other.metadata!.labels).toBe(slim.metadata!.labels);
    expect(other.status).toBe(slim.status);
    expect(other.spec).toBe(slim.spec);
    expect(Object.isFrozen(other.status)).toBe(true);
  });
});
