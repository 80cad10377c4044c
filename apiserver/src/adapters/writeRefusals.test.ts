import { describe, it, expect } from '@jest/globals';
import type {
  DatabaseInstance,
  DatabaseInstanceSpec,
} from '@internal/plugin-databases-common';
import { describeCause } from '../writes/FieldCause';
import {
  type EngineValidationContexts,
  prepareCreate,
  prepareUpdate,
} from '../writes/validateSpec';
import { readSample } from './__testUtils__/operatorFiles';
import { emptyLookup } from './__testUtils__/schemaDerivedFixtures';
import { adapters, engineNames, findAdapterForEngine } from './registry';
import type { KubeObject } from './types';

/** A request body as a client may send it: any engine string, any subset of fields. */
type Req = Omit<Partial<DatabaseInstanceSpec>, 'engine'> & { engine: string };

const request = (spec: Req, name = 'orders'): DatabaseInstance => ({
  apiVersion: 'dbaas.platform.dev/v1alpha1',
  kind: 'DatabaseInstance',
  metadata: { name, namespace: 'team-a' },
  spec: spec as DatabaseInstanceSpec,
});

const causesOf = (spec: Req, name?: string) => {
  const result = prepareCreate(request(spec, name), adapters);
  return result.causes.map(c => `${c.field}: ${c.message}`);
};

describe('create refusals name the field', () => {
  it.each<[string, Req, string]>([
    [
      'unknown engine',
      { engine: 'postgres' },
      // The supported values are the registry's engines, in its order.
      `spec.engine: Unsupported value: "postgres": supported values: ${engineNames()
        .map(e => JSON.stringify(e))
        .join(', ')}`,
    ],
    ['missing engine', { engine: '' }, 'spec.engine: Required value'],
    [
      'topology the engine lacks',
      { engine: 'mariadb', topology: 'cluster' },
      'spec.topology: Unsupported value: "cluster": supported values: "standalone", "replication", "galera"',
    ],
    [
      'topology of another engine',
      { engine: 'redis', topology: 'galera' },
      'spec.topology: Unsupported value: "galera": supported values: "standalone", "replication", "sentinel", "cluster"',
    ],
    [
      'version not offered',
      { engine: 'mariadb', version: '12.0' },
      'spec.version: Unsupported value: "12.0": supported values: "11.8", "11.4", "10.11", "10.6"',
    ],
    [
      'version not parseable',
      { engine: 'mysql', version: 'latest' },
      'spec.version: Invalid value: "latest": must be a dotted version number such as "9.1.0"',
    ],
    [
      'even galera',
      { engine: 'mariadb', topology: 'galera', replicas: 2 },
      'spec.replicas: Invalid value: 2: galera needs an odd number of replicas, at least 3',
    ],
    [
      'galera of one',
      { engine: 'mariadb', topology: 'galera', replicas: 1 },
      'spec.replicas: Invalid value: 1: galera needs an odd number of replicas, at least 3',
    ],
    [
      'standalone of two',
      { engine: 'mariadb', topology: 'standalone', replicas: 2 },
      'spec.replicas: Invalid value: 2: standalone runs exactly 1 replica',
    ],
    [
      'replication of one',
      { engine: 'mariadb', topology: 'replication', replicas: 1 },
      'spec.replicas: Invalid value: 1: replication needs at least 2 replicas (a primary and a replica)',
    ],
    [
      'InnoDB Cluster of ten',
      { engine: 'mysql', replicas: 10 },
      'spec.replicas: Invalid value: 10: an InnoDB Cluster has between 1 and 9 members',
    ],
    [
      'redis cluster of two shards',
      { engine: 'redis', topology: 'cluster', replicas: 2 },
      'spec.replicas: Invalid value: 2: a Redis Cluster needs at least 3 shards',
    ],
    [
      'redis sentinel of one',
      { engine: 'redis', topology: 'sentinel', replicas: 1 },
      'spec.replicas: Invalid value: 1: sentinel needs at least 2 replicas (a master and a replica)',
    ],
    [
      'redis standalone of three',
      { engine: 'redis', topology: 'standalone', replicas: 3 },
      'spec.replicas: Invalid value: 3: standalone runs exactly 1 replica',
    ],
    [
      'rabbitmq cluster of four',
      { engine: 'rabbitmq', topology: 'cluster', replicas: 4 },
      'spec.replicas: Invalid value: 4: a RabbitMQ cluster needs an odd number of nodes, at least 3',
    ],
    [
      'zero replicas',
      { engine: 'elasticsearch', replicas: 0 },
      'spec.replicas: Invalid value: 0: must be an integer greater than or equal to 1',
    ],
    [
      'fractional replicas',
      { engine: 'elasticsearch', replicas: 1.5 },
      'spec.replicas: Invalid value: 1.5: must be an integer greater than or equal to 1',
    ],
    [
      'replicas as a string',
      { engine: 'elasticsearch', replicas: '3' as never },
      'spec.replicas: Invalid value: "3": must be of type integer',
    ],
    [
      'storage not a quantity',
      { engine: 'rabbitmq', storage: { size: '10GB' } },
      `spec.storage.size: Invalid value: "10GB": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    ],
    [
      'storage of zero',
      { engine: 'rabbitmq', storage: { size: '0' } },
      'spec.storage.size: Invalid value: "0": must be greater than zero',
    ],
    [
      'bad storage class',
      {
        engine: 'redis',
        storage: { size: '1Gi', storageClassName: 'Fast_SSD' },
      },
      "spec.storage.storageClassName: Invalid value: \"Fast_SSD\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
    ],
    [
      'requests above limits',
      {
        engine: 'mysql',
        resources: { requests: { cpu: '2' }, limits: { cpu: '1500m' } },
      },
      'spec.resources.requests.cpu: Invalid value: "2": must be less than or equal to cpu limit of 1500m',
    ],
    [
      'memory request above limit',
      {
        engine: 'mysql',
        resources: { requests: { memory: '1.5Gi' }, limits: { memory: '1Gi' } },
      },
      'spec.resources.requests.memory: Invalid value: "1.5Gi": must be less than or equal to memory limit of 1Gi',
    ],
    [
      'cpu not a quantity',
      { engine: 'mysql', resources: { requests: { cpu: 'two' } } },
      `spec.resources.requests.cpu: Invalid value: "two": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    ],
    [
      'resource we do not map',
      {
        engine: 'mysql',
        resources: { limits: { 'nvidia.com/gpu': '1' } as never },
      },
      'spec.resources.limits.nvidia.com/gpu: Unsupported value: "nvidia.com/gpu": supported values: "cpu", "memory"',
    ],
    [
      'deletionProtection not boolean',
      { engine: 'redis', deletionProtection: 'yes' as never },
      'spec.deletionProtection: Invalid value: "yes": must be of type boolean',
    ],
  ])('%s', (_name, spec, expected) => {
    expect(causesOf(spec)).toEqual([expected]);
  });

  it('names every bad field at once', () => {
    const fields = prepareCreate(
      request(
        {
          engine: 'mariadb',
          topology: 'galera',
          version: '9',
          replicas: 4,
          storage: { size: 'big' },
        },
        'Orders',
      ),
      adapters,
    ).causes.map(c => c.field);
    expect(fields.sort()).toEqual(
      [
        'metadata.name',
        'spec.replicas',
        'spec.storage.size',
        'spec.version',
      ].sort(),
    );
  });

  it.each([
    ['elasticsearch', 36],
    ['mysql', 40],
    ['redis', 43],
    ['rabbitmq', 45],
    ['mariadb', 52],
  ])('%s names are at most %i characters', (engine, max) => {
    const ok = 'a'.repeat(max);
    const long = 'a'.repeat(max + 1);
    expect(causesOf({ engine }, ok)).toEqual([]);
    const [cause] = prepareCreate(request({ engine }, long), adapters).causes;
    expect(cause.field).toBe('metadata.name');
    expect(cause.message).toContain(`must be no more than ${max} characters`);
  });

  it.each(['Orders', 'orders_db', '-orders', 'orders.db'])(
    'refuses %p as a name (not a DNS-1123 label)',
    name => {
      const [cause] = prepareCreate(
        request({ engine: 'redis' }, name),
        adapters,
      ).causes;
      expect(cause).toMatchObject({
        field: 'metadata.name',
        reason: 'FieldValueInvalid',
      });
    },
  );

  it('fills the defaults of the chosen topology', () => {
    const result = prepareCreate(
      request({ engine: 'mariadb', topology: 'galera' }),
      adapters,
    );
    if (!('instance' in result)) throw new Error(JSON.stringify(result.causes));
    expect(result.instance.spec).toMatchObject({
      topology: 'galera',
      replicas: 3,
    });
  });

  it('narrows versions to the configured list of that engine only', () => {
    const narrowed = { mariadb: { versions: ['11.4'] } };
    const result = prepareCreate(
      request({ engine: 'mariadb', version: '10.6' }),
      adapters,
      narrowed,
    );
    expect(result.causes.map(c => c.message)).toEqual([
      'Unsupported value: "10.6": supported values: "11.4"',
    ]);
    const other = prepareCreate(
      request({ engine: 'redis', version: '6.2.14' }),
      adapters,
      narrowed,
    );
    expect(other.causes).toEqual([]);
  });

  it('defaults to the first configured version when the engine default is not offered', () => {
    const result = prepareCreate(request({ engine: 'mariadb' }), adapters, {
      mariadb: { versions: ['11.8', '10.11'] },
    });
    if (!('instance' in result)) throw new Error(JSON.stringify(result.causes));
    expect(result.instance.spec.version).toBe('11.8');
    const kept = prepareCreate(request({ engine: 'mariadb' }), adapters, {
      mariadb: { versions: ['11.8', '11.4'] },
    });
    if (!('instance' in kept)) throw new Error(JSON.stringify(kept.causes));
    expect(kept.instance.spec.version).toBe('11.4');
  });
});

/** Creates the operator object for `spec`, then returns what an update from there yields. */
function update(
  spec: Req,
  change: (previous: DatabaseInstanceSpec) => DatabaseInstanceSpec,
  adjust: (object: KubeObject) => void = () => {},
  contexts: EngineValidationContexts = {},
) {
  const created = prepareCreate(request(spec), adapters);
  if (!('instance' in created)) throw new Error(JSON.stringify(created.causes));
  const adapter = findAdapterForEngine(spec.engine)!;
  const kind = adapter.write!.kindFor(created.instance.spec.topology!);
  const current = adapter.write!.toOperatorObject(created.instance);
  adjust(current);
  const previous = adapter.project(current, kind, emptyLookup).spec;
  return prepareUpdate(current, change(previous), previous, adapters, contexts);
}

const refusals = (result: ReturnType<typeof update>) =>
  'causes' in result ? result.causes.map(c => `${c.field}: ${c.message}`) : [];

describe('update refusals say why', () => {
  it.each<
    [string, Req, (p: DatabaseInstanceSpec) => DatabaseInstanceSpec, string]
  >([
    [
      'mariadb downgrade',
      { engine: 'mariadb', version: '11.4' },
      p => ({ ...p, version: '10.11' }),
      'spec.version: Forbidden: downgrade from 11.4 to 10.11 is not supported by mariadb-operator',
    ],
    [
      'mysql downgrade',
      { engine: 'mysql', version: '9.1.0' },
      p => ({ ...p, version: '8.4.3' }),
      'spec.version: Forbidden: downgrade from 9.1.0 to 8.4.3 is not supported by mysql-operator',
    ],
    [
      'elasticsearch downgrade',
      { engine: 'elasticsearch', version: '9.4.3' },
      p => ({ ...p, version: '8.19.0' }),
      'spec.version: Forbidden: downgrade from 9.4.3 to 8.19.0 is not supported by eck',
    ],
    [
      'storage shrink',
      { engine: 'mariadb', storage: { size: '10Gi' } },
      p => ({ ...p, storage: { size: '5Gi' } }),
      'spec.storage.size: Forbidden: shrinking storage from 10Gi to 5Gi is not supported: volumes can only grow',
    ],
    [
      'storage shrink in other units',
      { engine: 'redis', storage: { size: '1Gi' } },
      p => ({ ...p, storage: { size: '1000Mi' } }),
      'spec.storage.size: Forbidden: shrinking storage from 1Gi to 1000Mi is not supported: volumes can only grow',
    ],
    [
      'mysql storage growth',
      { engine: 'mysql', storage: { size: '10Gi' } },
      p => ({ ...p, storage: { size: '20Gi' } }),
      'spec.storage.size: Forbidden: resizing storage from 10Gi to 20Gi is not supported by mysql-operator',
    ],
    [
      'storage class change',
      {
        engine: 'rabbitmq',
        storage: { size: '10Gi', storageClassName: 'fast' },
      },
      p => ({ ...p, storage: { size: '10Gi', storageClassName: 'slow' } }),
      'spec.storage.storageClassName: Forbidden: the storage class of existing volumes cannot be changed (from "fast" to "slow")',
    ],
    [
      'topology change',
      { engine: 'mariadb', topology: 'replication' },
      p => ({ ...p, topology: 'galera' }),
      'spec.topology: Forbidden: changing the topology from replication to galera is not supported by mariadb-operator; create a new instance and move the data',
    ],
    [
      'redis topology change',
      { engine: 'redis', topology: 'replication' },
      p => ({ ...p, topology: 'sentinel' }),
      'spec.topology: Forbidden: changing the topology from replication to sentinel is not supported by redis-operator; create a new instance and move the data',
    ],
    [
      'rabbitmq scale down',
      { engine: 'rabbitmq', topology: 'cluster', replicas: 5 },
      p => ({ ...p, replicas: 3 }),
      'spec.replicas: Forbidden: scaling down from 5 to 3 is not supported by rabbitmq-cluster-operator',
    ],
    [
      'rabbitmq cluster to standalone',
      { engine: 'rabbitmq', topology: 'cluster' },
      p => ({ ...p, topology: 'standalone', replicas: 1 }),
      'spec.replicas: Forbidden: scaling down from 3 to 1 is not supported by rabbitmq-cluster-operator',
    ],
    [
      'engine change',
      { engine: 'mariadb' },
      p => ({
        ...p,
        engine: 'mysql',
        topology: 'innodbcluster',
        version: '8.4.3',
      }),
      'spec.engine: Invalid value: "mysql": field is immutable',
    ],
  ])('%s', (_name, spec, change, expected) => {
    expect(refusals(update(spec, change))).toContain(expected);
  });

  it('refuses an invalid new value before mapping it', () => {
    expect(
      refusals(
        update({ engine: 'mariadb', topology: 'galera' }, p => ({
          ...p,
          replicas: 4,
        })),
      ),
    ).toEqual([
      'spec.replicas: Invalid value: 4: galera needs an odd number of replicas, at least 3',
    ]);
  });

  it("follows ECK's upgrade path: 9.x only from 8.18 or later", () => {
    const result = update(
      { engine: 'elasticsearch', version: '8.18.0' },
      p => ({ ...p, version: '9.4.3' }),
      object => {
        object.spec.version = '8.15.3';
      },
    );
    expect(refusals(result)).toEqual([
      'spec.version: Forbidden: upgrading from 8.15.3 to 9.4.3 is not supported by eck: upgrade to 8.18 or later first',
    ]);
  });

  it('refuses to scale an Elasticsearch with several node sets as one', () => {
    const result = update(
      { engine: 'elasticsearch' },
      // 3 + 2 nodes read back as 5; 7 cannot say which set grows.
      p => ({ ...p, replicas: 7 }),
      object => {
        object.spec.nodeSets.push({ name: 'warm', count: 2 });
      },
    );
    expect(refusals(result)).toEqual([
      'spec.replicas: Forbidden: the Elasticsearch object has 2 node sets; change them in the Elasticsearch object itself',
    ]);
  });

  it('refuses rabbitmq cluster to standalone for the scale-down alone: one node is standalone', () => {
    const result = update({ engine: 'rabbitmq', topology: 'cluster' }, p => ({
      ...p,
      topology: 'standalone',
      replicas: 1,
    }));
    expect(refusals(result)).toEqual([
      'spec.replicas: Forbidden: scaling down from 3 to 1 is not supported by rabbitmq-cluster-operator',
    ]);
  });

  it('lets rabbitmq grow from standalone to a cluster by scaling up', () => {
    const result = update({ engine: 'rabbitmq' }, p => ({
      ...p,
      topology: 'cluster',
      replicas: 3,
    }));
    expect('object' in result && result.object.spec.replicas).toBe(3);
  });

  it('keeps values an adopted object holds that a create would refuse (ratcheting)', () => {
    const result = update(
      { engine: 'mariadb', topology: 'galera' },
      p => ({ ...p, version: '11.8' }),
      object => {
        // An even Galera cluster made with replicasAllowEvenNumber, on a version we no longer offer.
        object.spec.replicas = 4;
        object.spec.replicasAllowEvenNumber = true;
        object.spec.image = 'mariadb:10.5';
      },
    );
    if (!('object' in result)) throw new Error(JSON.stringify(result.causes));
    expect(result.object.spec).toMatchObject({
      replicas: 4,
      image: 'mariadb:11.8',
    });
  });

  it('upgrades only to a configured version, and scales an instance on one no longer offered', () => {
    const narrowed = { mariadb: { versions: ['11.8'] } };
    const upgrade = update(
      { engine: 'mariadb', version: '10.6' },
      p => ({ ...p, version: '11.4' }),
      undefined,
      narrowed,
    );
    expect('causes' in upgrade && upgrade.causes.map(describeCause)).toEqual([
      'spec.version: Unsupported value: "11.4": supported values: "11.8"',
    ]);
    const scale = update(
      { engine: 'mariadb', version: '10.6', topology: 'galera' },
      p => ({ ...p, replicas: 5 }),
      undefined,
      narrowed,
    );
    if (!('object' in scale)) throw new Error(JSON.stringify(scale.causes));
    expect(scale.object.spec).toMatchObject({
      replicas: 5,
      image: 'mariadb:10.6',
    });
  });

  it('refuses to size the volumes of an adopted RedisSentinel, which has none', () => {
    const sample = readSample(
      'redis-operator',
      'redis-sentinel.yaml',
      'RedisSentinel',
    );
    sample.metadata = { namespace: 'team-a', ...sample.metadata };
    const adapter = findAdapterForEngine('redis')!;
    const kind = adapter.kinds.find(k => k.kind === 'RedisSentinel')!;
    const previous = adapter.project(sample, kind, emptyLookup).spec;
    expect(previous.storage).toBeUndefined();
    const resize = prepareUpdate(
      sample,
      { ...previous, storage: { size: '5Gi' } },
      previous,
      adapters,
    );
    expect('causes' in resize && resize.causes.map(describeCause)).toEqual([
      'spec.storage.size: Forbidden: a RedisSentinel has no volumes to size: its Sentinels keep no data',
    ]);
    // Everything else it has still changes.
    const scale = prepareUpdate(
      sample,
      { ...previous, replicas: 5 },
      previous,
      adapters,
    );
    if (!('object' in scale)) throw new Error(JSON.stringify(scale.causes));
    expect(scale.object.spec.clusterSize).toBe(5);
    expect(scale.object.spec.storage).toBeUndefined();
  });

  it('keeps what the spec does not cover and fields the request leaves out', () => {
    const result = update(
      { engine: 'redis', topology: 'cluster' },
      p => ({ engine: p.engine, replicas: 6 }) as DatabaseInstanceSpec,
      object => {
        object.spec.redisExporter = {
          enabled: true,
          image: 'quay.io/opstree/redis-exporter:v1.44.0',
        };
      },
    );
    if (!('object' in result)) throw new Error(JSON.stringify(result.causes));
    expect(result.object.spec).toMatchObject({
      clusterSize: 6,
      clusterVersion: 'v7',
      redisExporter: { enabled: true },
    });
    expect(result.spec).toMatchObject({
      topology: 'cluster',
      version: '7.0.15',
    });
  });
});
