import { describe, expect, it } from '@jest/globals';
import { condition, harness, NS, shape } from '../__testutils__/harness';
import { upstreamStatusSamples } from '../__testutils__/upstream';
import {
  CNPG_CLUSTER_KIND,
  CNPG_DEFAULT_IMAGE,
  CNPG_PHASES,
} from './cloudnativePgOperator';

const samples = upstreamStatusSamples('cloudnative-pg');
const sample = (prefix: string) =>
  samples.find(s => s.file.startsWith(prefix))!.status;
const settingUp = sample('cluster-provisioning-setting-up-primary');
const healthy = sample('cluster-healthy.argocd-fixture');

const spec = {
  instances: 3,
  imageName: 'ghcr.io/cloudnative-pg/postgresql:18.3-system-trixie',
  storage: { size: '1Gi' },
};
const status = (h: ReturnType<typeof harness>) =>
  h.get(CNPG_CLUSTER_KIND, 'orders').status as any;
const phases = (h: ReturnType<typeof harness>) => [
  ...new Set(h.statuses(CNPG_CLUSTER_KIND, 'orders').map(s => s.phase)),
];

describe('cloudnativePgOperator', () => {
  it('walks "Setting up primary", "Creating a new replica" to "Cluster in healthy state"', () => {
    const h = harness();
    h.create(CNPG_CLUSTER_KIND, 'orders', spec);
    h.emulator.settle();
    const trace = h.statuses(CNPG_CLUSTER_KIND, 'orders');
    expect(trace[0]).toMatchObject({
      phase: settingUp.phase,
      phaseReason: 'Creating primary instance orders-1',
      targetPrimary: 'orders-1',
    });
    expect(trace[0].readyInstances).toBeUndefined();
    expect(trace[0].currentPrimary).toBeUndefined();
    expect(shape(condition(trace[0], 'Ready'))).toEqual(
      shape(condition(settingUp, 'Ready')),
    );
    expect(phases(h)).toEqual([
      CNPG_PHASES.firstPrimary,
      CNPG_PHASES.creatingReplica,
      CNPG_PHASES.healthy,
    ]);
    const s = status(h);
    expect(s).toMatchObject({
      phase: healthy.phase,
      instances: 3,
      readyInstances: 3,
      currentPrimary: 'orders-1',
      targetPrimary: 'orders-1',
      instanceNames: ['orders-1', 'orders-2', 'orders-3'],
      image: spec.imageName,
      pgDataImageInfo: { image: spec.imageName, majorVersion: 18 },
      writeService: 'orders-rw',
      readService: 'orders-r',
    });
    expect(s.phaseReason).toBeUndefined();
    expect(shape(condition(s, 'Ready'))).toEqual(
      shape(condition(healthy, 'Ready')),
    );
    expect(h.upstreamStatusErrors(CNPG_CLUSTER_KIND)).toEqual([]);
  });

  it('creates <n>-rw, <n>-ro, <n>-r and the <n>-app basic-auth Secret, and no StatefulSet', () => {
    const h = harness();
    const cr = h.create(CNPG_CLUSTER_KIND, 'orders', spec);
    h.emulator.settle();
    expect(h.owned(cr).sort()).toEqual([
      'secrets/orders-app',
      'services/orders-r',
      'services/orders-ro',
      'services/orders-rw',
    ]);
    const secret = h.store.get(
      { group: '', version: 'v1', plural: 'secrets' },
      NS,
      'orders-app',
    )!;
    const data = Object.fromEntries(
      Object.entries(secret.data as Record<string, string>).map(([k, v]) => [
        k,
        Buffer.from(v, 'base64').toString('utf8'),
      ]),
    );
    expect(data).toMatchObject({
      username: 'app',
      user: 'app',
      dbname: 'app',
      host: 'orders-rw',
      port: '5432',
    });
    expect(data.uri).toBe(
      `postgresql://app:${data.password}@orders-rw.${NS}:5432/app`,
    );
  });

  it('runs the default image when the Cluster names none', () => {
    const h = harness();
    h.create(CNPG_CLUSTER_KIND, 'orders', { instances: 1 });
    h.emulator.settle();
    expect(status(h)).toMatchObject({
      phase: CNPG_PHASES.healthy,
      image: CNPG_DEFAULT_IMAGE,
      readyInstances: 1,
    });
  });

  it('goes through "Upgrading cluster" for a new image and "Creating a new replica" for a scale-up', () => {
    const h = harness();
    h.create(CNPG_CLUSTER_KIND, 'orders', spec);
    h.emulator.settle();
    h.patchSpec(CNPG_CLUSTER_KIND, 'orders', s => {
      s.imageName = 'ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie';
    });
    h.emulator.settle();
    expect(phases(h)).toContain(CNPG_PHASES.upgrade);
    expect(status(h)).toMatchObject({
      phase: CNPG_PHASES.healthy,
      pgDataImageInfo: {
        image: 'ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie',
      },
    });
    const before = h.statuses(CNPG_CLUSTER_KIND, 'orders').length;
    h.patchSpec(CNPG_CLUSTER_KIND, 'orders', s => {
      s.instances = 5;
    });
    h.emulator.settle();
    const after = h.statuses(CNPG_CLUSTER_KIND, 'orders').slice(before);
    expect(after.map(s => s.phase)).toContain(CNPG_PHASES.creatingReplica);
    expect(status(h)).toMatchObject({ readyInstances: 5, instances: 5 });
    expect(h.upstreamStatusErrors(CNPG_CLUSTER_KIND)).toEqual([]);
  });

  it('renders the control API health modes as the operator would: failover and unrecoverable', () => {
    const h = harness();
    h.create(CNPG_CLUSTER_KIND, 'orders', spec);
    h.emulator.settle();
    const ref = { kind: 'Cluster', namespace: NS, name: 'orders' };
    h.emulator.setHealth(ref, 'degraded');
    h.emulator.settle();
    expect(status(h)).toMatchObject({
      phase: CNPG_PHASES.failOver,
      targetPrimary: 'pending',
    });
    h.emulator.setHealth(ref, 'failed', 'Instance creation failed');
    h.emulator.settle();
    expect(status(h)).toMatchObject({
      phase: CNPG_PHASES.unrecoverable,
      phaseReason: 'Instance creation failed',
    });
    expect(h.upstreamStatusErrors(CNPG_CLUSTER_KIND)).toEqual([]);
  });
});
