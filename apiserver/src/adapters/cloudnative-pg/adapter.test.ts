import { describe, it, expect } from '@jest/globals';
import type { DatabaseInstanceSpec } from '@internal/plugin-databases-common';
import { prepareCreate, prepareUpdate } from '../../writes/validateSpec';
import { readSample } from '../__testUtils__/operatorFiles';
import { emptyLookup } from '../__testUtils__/schemaDerivedFixtures';
import { adapters } from '../registry';
import type { KubeObject } from '../types';
import { cloudnativePgAdapter } from './adapter';
import { CLUSTER_PHASES, PHASE_HEALTHY } from './clusterPhases';

const kind = cloudnativePgAdapter.kinds[0];
const write = cloudnativePgAdapter.write!;
const project = (object: KubeObject) =>
  cloudnativePgAdapter.project(object, kind, emptyLookup);

/** A Cluster of `instances` in team-a with the given status. */
const cluster = (
  status: Record<string, unknown> | undefined,
  spec: Record<string, unknown> = { instances: 3 },
  metadata: KubeObject['metadata'] = {},
): KubeObject => ({
  apiVersion: 'postgresql.cnpg.io/v1',
  kind: 'Cluster',
  metadata: { name: 'orders', namespace: 'team-a', uid: 'u-1', ...metadata },
  spec: {
    imageName: 'ghcr.io/cloudnative-pg/postgresql:17.10-system-trixie',
    ...spec,
  },
  ...(status && { status }),
});

/** A healthy status of a 3-instance cluster whose primary is orders-1. */
const healthy = (over: Record<string, unknown> = {}) => ({
  phase: PHASE_HEALTHY,
  instances: 3,
  readyInstances: 3,
  currentPrimary: 'orders-1',
  targetPrimary: 'orders-1',
  conditions: [
    {
      type: 'Ready',
      status: 'True',
      reason: 'ClusterIsReady',
      message: 'Cluster is Ready',
      lastTransitionTime: '2026-12-01T10:00:00Z',
    },
  ],
  ...over,
});

const verdict = (object: KubeObject) => {
  const { phase, reason, message } = project(object).status!;
  return { phase, reason, ...(message !== undefined && { message }) };
};

describe('cloudnativePgAdapter: phase', () => {
  it('is Ready only when healthy, every instance ready and the primary the targeted one', () => {
    expect(verdict(cluster(healthy()))).toEqual({
      phase: 'Ready',
      reason: 'AllReplicasReady',
      message: PHASE_HEALTHY,
    });
  });

  it('a healthy phase with fewer ready instances is Degraded', () => {
    expect(verdict(cluster(healthy({ readyInstances: 2 })))).toEqual({
      phase: 'Degraded',
      reason: 'ReplicasNotReady',
      message: '2/3 replicas ready',
    });
  });

  it('a healthy phase with no ready instance (readyInstances omitted) is Failed, not Ready', () => {
    expect(
      verdict(cluster(healthy({ readyInstances: undefined }))),
    ).toMatchObject({
      phase: 'Failed',
      reason: 'NoReplicasReady',
    });
  });

  it('a healthy phase targeting another primary is a switchover under way', () => {
    expect(
      verdict(cluster(healthy({ targetPrimary: 'orders-2' }))),
    ).toMatchObject({
      phase: 'Updating',
      reason: 'Switchover',
    });
  });

  it('targetPrimary "pending" (a failover) while serving is Degraded', () => {
    expect(
      verdict(
        cluster(healthy({ targetPrimary: 'pending', readyInstances: 2 })),
      ),
    ).toMatchObject({ phase: 'Degraded', reason: 'FailingOver' });
    expect(
      verdict(
        cluster({
          phase: 'Failing over',
          phaseReason: 'Failing over from orders-1 to orders-2',
          readyInstances: 2,
          currentPrimary: 'orders-1',
          targetPrimary: 'pending',
        }),
      ),
    ).toEqual({
      phase: 'Degraded',
      reason: 'FailingOver',
      message: 'Failing over from orders-1 to orders-2',
    });
  });

  it.each(
    Object.entries(CLUSTER_PHASES).map(([sentence, meaning]) => [
      sentence,
      meaning.fact,
      meaning.reason,
    ]),
  )(
    '"%s" is a %s fact (%s) with phaseReason as the message',
    (sentence, fact, reason) => {
      const object = cluster({
        phase: sentence,
        phaseReason: 'the operator says why',
        readyInstances: 2,
        currentPrimary: 'orders-1',
        targetPrimary: 'orders-1',
      });
      const expected = {
        creating: 'Provisioning',
        changing: 'Updating',
        unhealthy: 'Degraded',
        failed: 'Failed',
      }[fact];
      expect(verdict(object)).toEqual({
        phase: expected,
        reason,
        message: 'the operator says why',
      });
    },
  );

  it('waiting for user action and an unrecoverable cluster are Failed with the operator words', () => {
    expect(
      verdict(
        cluster({
          phase: 'Cluster is unrecoverable and needs manual intervention',
          phaseReason:
            'No pods are active, the cluster needs manual intervention',
        }),
      ),
    ).toEqual({
      phase: 'Failed',
      reason: 'Unrecoverable',
      message: 'No pods are active, the cluster needs manual intervention',
    });
  });

  it('a sentence it does not know is never Ready, even with every count right', () => {
    expect(
      verdict(cluster(healthy({ phase: 'Cluster is hibernated' }))),
    ).toEqual({
      phase: 'Unknown',
      reason: 'UnrecognizedPhase',
      message: 'CloudNativePG reports phase "Cluster is hibernated"',
    });
  });

  it('no status is Pending', () => {
    expect(verdict(cluster(undefined))).toMatchObject({
      phase: 'Pending',
      reason: 'AwaitingOperator',
    });
  });

  it('hibernation requested but not finished is Paused as well', () => {
    expect(
      verdict(
        cluster(healthy(), undefined, {
          annotations: { 'cnpg.io/hibernation': 'on' },
        }),
      ),
    ).toMatchObject({ phase: 'Paused', reason: 'Hibernating' });
  });

  it('a deletionTimestamp is Deleting', () => {
    expect(
      verdict(
        cluster(healthy(), undefined, {
          deletionTimestamp: '2026-12-01T11:00:00Z',
        }),
      ),
    ).toMatchObject({ phase: 'Deleting' });
  });

  it('a backup in progress (LastBackupSucceeded=False BackupStarted) is no failure', () => {
    const status = healthy();
    status.conditions = [
      ...(status.conditions as any[]),
      {
        type: 'LastBackupSucceeded',
        status: 'False',
        reason: 'BackupStarted',
        message: 'New Backup starting up',
        lastTransitionTime: '2026-12-01T10:05:00Z',
      },
    ];
    expect(verdict(cluster(status)).phase).toBe('Ready');
  });
});

describe('cloudnativePgAdapter: conditions', () => {
  it('mirrors WAL archiving and the last backup as conditions, verbatim', () => {
    const status = healthy();
    status.conditions = [
      ...(status.conditions as any[]),
      {
        type: 'ContinuousArchiving',
        status: 'False',
        reason: 'ContinuousArchivingFailing',
        message:
          'unexpected failure invoking barman-cloud-wal-archive: exit status 2',
        lastTransitionTime: '2026-12-01T10:01:00Z',
      },
      {
        type: 'LastBackupSucceeded',
        status: 'False',
        reason: 'LastBackupFailed',
        message: 'exit status 2',
        lastTransitionTime: '2026-12-01T10:02:00Z',
      },
    ];
    const instance = project(cluster(status));
    expect(instance.status).toMatchObject({
      phase: 'Degraded',
      reason: 'ContinuousArchivingFailing',
    });
    expect(
      instance.status?.conditions?.map(c => [c.type, c.status, c.reason]),
    ).toEqual([
      ['Ready', 'False', 'ContinuousArchivingFailing'],
      ['ContinuousArchiving', 'False', 'ContinuousArchivingFailing'],
      ['LastBackupSucceeded', 'False', 'LastBackupFailed'],
    ]);
  });
});

describe('cloudnativePgAdapter: spec, endpoints and credentials', () => {
  it('reads the upstream minimal sample: 3 instances, replication, default image', () => {
    const object = readSample(
      'cloudnative-pg',
      'cluster-example.yaml',
      'Cluster',
    );
    object.metadata = { ...object.metadata, namespace: 'team-a' };
    const instance = project(object);
    expect(instance.spec).toEqual({
      engine: 'postgresql',
      topology: 'replication',
      replicas: 3,
      storage: { size: '1Gi' },
    });
    expect(instance.status?.endpoints).toEqual([
      { name: 'primary', host: 'cluster-example-rw.team-a.svc', port: 5432 },
      { name: 'readonly', host: 'cluster-example-ro.team-a.svc', port: 5432 },
      { name: 'any', host: 'cluster-example-r.team-a.svc', port: 5432 },
    ]);
    expect(instance.status?.credentialsSecretRef).toEqual({
      name: 'cluster-example-app',
    });
  });

  it('reads the full sample: version from imageName, storage class, its own app Secret', () => {
    const object = readSample(
      'cloudnative-pg',
      'cluster-example-full.yaml',
      'Cluster',
    );
    const instance = project(object);
    expect(instance.spec).toMatchObject({
      version: '18.4',
      storage: { storageClassName: 'standard' },
    });
    expect(instance.status?.credentialsSecretRef?.name).toBe(
      object.spec.bootstrap.initdb.secret.name,
    );
  });

  it('reads the major of an image catalog reference', () => {
    const object = readSample(
      'cloudnative-pg',
      'cluster-example-catalog.yaml',
      'Cluster',
    );
    expect(project(object).spec.version).toBe(
      String(object.spec.imageCatalogRef.major),
    );
  });

  it('reports the running version from status.image and leaves out disabled Services', () => {
    const instance = project(
      cluster(
        healthy({
          image: 'ghcr.io/cloudnative-pg/postgresql:17.6-system-trixie',
        }),
        {
          instances: 1,
          managed: { services: { disabledDefaultServices: ['ro', 'r'] } },
        },
      ),
    );
    expect(instance.status?.version).toBe('17.6');
    expect(instance.spec.topology).toBe('standalone');
    expect(instance.status?.endpoints?.map(e => e.name)).toEqual(['primary']);
  });

  it('gives user, password, database, host, port and a postgresql:// URI from <name>-app', () => {
    const source = cluster(healthy());
    const instance = project(source);
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const secret: KubeObject = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'orders-app', namespace: 'team-a' },
      data: {
        username: b64('app'),
        password: b64('p@ss/word'),
        dbname: b64('app'),
        host: b64('orders-rw'),
        port: b64('5432'),
      },
    };
    expect(write.connectionSecretName(source)).toBe('orders-app');
    expect(write.connection(instance, source, secret)).toMatchObject({
      host: 'orders-rw.team-a.svc',
      port: 5432,
      username: 'app',
      password: 'p@ss/word',
      database: 'app',
      uri: 'postgresql://app:p%40ss%2Fword@orders-rw.team-a.svc:5432/app',
      secretRef: { name: 'orders-app' },
    });
  });
});

describe('cloudnativePgAdapter: writes', () => {
  const create = (spec: Partial<DatabaseInstanceSpec>) => {
    const result = prepareCreate(
      {
        apiVersion: 'dbaas.platform.dev/v1alpha1',
        kind: 'DatabaseInstance',
        metadata: { name: 'orders', namespace: 'team-a' },
        spec: { engine: 'postgresql', ...spec } as DatabaseInstanceSpec,
      },
      adapters,
    );
    if (!('instance' in result)) throw new Error(JSON.stringify(result.causes));
    return write.toOperatorObject(result.instance);
  };
  const update = (
    current: KubeObject,
    change: Partial<DatabaseInstanceSpec>,
  ) => {
    const previous = project(current).spec;
    return prepareUpdate(
      current,
      { ...previous, ...change },
      previous,
      adapters,
    );
  };

  it('takes 1 instance as standalone and 2 or more as replication, nothing else', () => {
    const refusals = (topology: string, replicas: number) =>
      write
        .validate({
          ...write.defaults(topology as any),
          engine: 'postgresql',
          topology: topology as any,
          replicas,
        })
        .filter(c => c.field === 'spec.replicas').length;
    expect([1, 2, 3, 9].map(n => refusals('standalone', n))).toEqual([
      0, 1, 1, 1,
    ]);
    expect([1, 2, 3, 9].map(n => refusals('replication', n))).toEqual([
      1, 0, 0, 0,
    ]);
  });

  it('creates a standalone and a replicated Cluster on the operator image line', () => {
    expect(create({}).spec).toEqual({
      instances: 1,
      imageName: 'ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie',
      storage: { size: '10Gi' },
      resources: {
        requests: { cpu: '250m', memory: '512Mi' },
        limits: { memory: '1Gi' },
      },
    });
    expect(
      create({
        topology: 'replication',
        storage: { size: '5Gi', storageClassName: 'fast' },
      }).spec,
    ).toMatchObject({
      instances: 3,
      storage: { size: '5Gi', storageClass: 'fast' },
    });
  });

  it('upgrades a minor by image, keeping the registry and flavour', () => {
    const current = cluster(healthy(), {
      instances: 3,
      imageName: 'registry.local/mirror/postgresql:18.3-system-trixie',
    });
    const result = update(current, { version: '18.4' });
    expect(result).toMatchObject({
      object: {
        spec: {
          imageName: 'registry.local/mirror/postgresql:18.4-system-trixie',
        },
      },
    });
  });

  it('refuses a major upgrade, saying which operator version could and why not here', () => {
    const result = update(cluster(healthy()), { version: '18.4' });
    expect(result).toEqual({
      causes: [
        expect.objectContaining({
          field: 'spec.version',
          message: expect.stringContaining(
            'upgrading from 17.10 to 18.4 crosses a major version: an in-place major upgrade needs CloudNativePG 1.26 or later',
          ),
        }),
      ],
    });
  });

  it('refuses a version change on a cluster whose image comes from a catalog', () => {
    const current = cluster(healthy(), {
      instances: 3,
      imageName: undefined,
      imageCatalogRef: {
        apiGroup: 'postgresql.cnpg.io',
        kind: 'ImageCatalog',
        name: 'postgresql',
        major: 18,
      },
    });
    delete current.spec.imageName;
    const result = update(current, { version: '18.4' });
    expect('causes' in result && result.causes.map(c => c.message)).toEqual([
      expect.stringContaining('comes from ImageCatalog "postgresql"'),
    ]);
  });

  it('scales instances (topology follows) and grows storage, never shrinks it', () => {
    const current = cluster(healthy(), {
      instances: 1,
      imageName: 'ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie',
      storage: { size: '10Gi' },
    });
    expect(
      update(current, {
        replicas: 3,
        topology: 'replication',
        storage: { size: '20Gi' },
      }),
    ).toMatchObject({
      object: { spec: { instances: 3, storage: { size: '20Gi' } } },
    });
    expect(update(current, { storage: { size: '5Gi' } })).toEqual({
      causes: [expect.objectContaining({ field: 'spec.storage.size' })],
    });
  });
});
