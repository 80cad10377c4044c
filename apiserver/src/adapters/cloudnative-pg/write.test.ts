import { describe, it, expect } from '@jest/globals';
import type { DatabaseInstanceSpec } from '@internal/plugin-databases-common';
import { describeCause } from '../../writes/FieldCause';
import { emptyLookup } from '../__testUtils__/schemaDerivedFixtures';
import { updateThrough } from '../__testUtils__/updateThrough';
import type { KubeObject } from '../types';
import { cloudnativePgAdapter } from './adapter';

const write = cloudnativePgAdapter.write!;
const kind = cloudnativePgAdapter.kinds[0];

const cluster = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'postgresql.cnpg.io/v1',
  kind: 'Cluster',
  metadata: { name: 'pg', namespace: 'team-a', generation: 1 },
  spec,
});
const project = (o: KubeObject) =>
  cloudnativePgAdapter.project(o, kind, emptyLookup);

const update = (
  current: KubeObject,
  change: Partial<DatabaseInstanceSpec>,
  without: Array<keyof DatabaseInstanceSpec> = [],
) => updateThrough(cloudnativePgAdapter, current, change, without);

describe('CloudNativePG writes', () => {
  it('one instance is standalone, more are replication (the topology follows spec.instances)', () => {
    expect(write.rules.topologyForReplicas?.(1)).toBe('standalone');
    expect(write.rules.topologyForReplicas?.(2)).toBe('replication');
    expect(project(cluster({ instances: 1 })).spec.topology).toBe('standalone');
    expect(project(cluster({ instances: 2 })).spec.topology).toBe(
      'replication',
    );
    expect(project(cluster({})).spec).toMatchObject({
      topology: 'standalone',
      replicas: 1,
    });
  });

  it('refuses a minor change of a cluster whose image an ImageCatalog names, naming the catalog', () => {
    const current = cluster({
      instances: 3,
      imageCatalogRef: {
        apiGroup: 'postgresql.cnpg.io',
        kind: 'ClusterImageCatalog',
        name: 'postgresql',
        major: 17,
      },
    });
    const result = update(current, { version: '17.5' });
    expect((result.causes ?? []).map(describeCause)).toEqual([
      'spec.version: Forbidden: the image of this cluster comes from ClusterImageCatalog "postgresql": change the version there',
    ]);
    const unnamed = update(
      cluster({ instances: 3, imageCatalogRef: { major: 17 } }),
      { version: '17.5' },
    );
    expect((unnamed.causes ?? []).map(describeCause)).toEqual([
      'spec.version: Forbidden: the image of this cluster comes from ImageCatalog "": change the version there',
    ]);
  });

  it('takes the other changes of a catalog cluster, and says the shared refusal alone for a major', () => {
    const current = cluster({
      instances: 3,
      imageCatalogRef: { kind: 'ImageCatalog', name: 'pg', major: 17 },
    });
    expect(update(current, { replicas: 5 }).object?.spec.instances).toBe(5);
    const major = update(current, { version: '18' });
    expect(major.causes?.map(c => c.field)).toEqual(['spec.version']);
    expect(describeCause(major.causes![0])).not.toContain('ImageCatalog');
  });

  it('moves the image tag on a minor upgrade and keeps instances when the change names none', () => {
    const current = cluster({
      instances: 3,
      imageName: 'ghcr.io/cloudnative-pg/postgresql:18.3-system-trixie',
    });
    const result = update(current, { version: '18.4' }, ['replicas']);
    expect(result.object?.spec).toMatchObject({
      instances: 3,
      imageName: 'ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie',
    });
  });

  it('connects to <name>-rw with the app Secret, its dbname first, then initdb, then app', () => {
    const source = cluster({
      instances: 1,
      bootstrap: { initdb: { database: 'orders' } },
    });
    const instance = project(source);
    const secret = (data: Record<string, string>): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'pg-app', namespace: 'team-a' },
      data: Object.fromEntries(
        Object.entries(data).map(([k, v]) => [
          k,
          Buffer.from(v).toString('base64'),
        ]),
      ),
    });
    expect(
      write.connection(
        instance,
        source,
        secret({ username: 'u', password: 'p', dbname: 'fromsecret' }),
      ),
    ).toMatchObject({
      host: 'pg-rw.team-a.svc',
      database: 'fromsecret',
      uri: 'postgresql://u:p@pg-rw.team-a.svc:5432/fromsecret',
      endpoints: expect.arrayContaining([
        expect.objectContaining({ name: 'primary', host: 'pg-rw.team-a.svc' }),
      ]),
    });
    expect(
      write.connection(
        instance,
        source,
        secret({ user: 'legacy', password: 'p' }),
      ),
    ).toMatchObject({ username: 'legacy', database: 'orders' });
    const plain = cluster({ instances: 1 });
    expect(
      write.connection(
        project(plain),
        plain,
        secret({ username: 'u', password: 'p' }),
      ).database,
    ).toBe('app');
    expect(write.connectionSecretName(plain)).toBe('pg-app');
  });
});
