import { describe, expect, it } from '@jest/globals';
import { harness, condition, NS } from './__testutils__/harness';
import { CNPG_CLUSTER_KIND } from './cloudnative-pg/cloudnativePgOperator';
import { MARIADB_KIND } from './mariadb-operator/mariadbOperator';
import { FAIL_PRIMARY_ANNOTATION } from './OperatorEmulator';

const PODS = { group: '', version: 'v1', plural: 'pods' };
const roleLabels = (h: ReturnType<typeof harness>) =>
  Object.fromEntries(
    h.store
      .list(PODS, NS)
      .filter(p => p.metadata.labels?.['cnpg.io/instanceRole'])
      .map(p => [p.metadata.name, p.metadata.labels!['cnpg.io/instanceRole']]),
  );

describe('emulated switchovers, as the operators carry them out', () => {
  it('mariadb-operator: a new spec.replication.primary.podIndex is one round switching (Ready False SwitchPrimary), then the new primary', () => {
    const h = harness();
    h.create(MARIADB_KIND, 'repl', { image: 'mariadb:11.4.2', replicas: 3, replication: { enabled: true } });
    h.emulator.settle();
    expect((h.get(MARIADB_KIND, 'repl').status as any).currentPrimaryPodIndex).toBe(0);
    h.patchSpec(MARIADB_KIND, 'repl', s => (s.replication.primary = { podIndex: 2 }));
    h.emulator.tick();
    let status = h.get(MARIADB_KIND, 'repl').status as any;
    expect(condition(status, 'Ready')).toMatchObject({ status: 'False', reason: 'SwitchPrimary', message: "Switching primary to 'repl-2'" });
    expect(condition(status, 'PrimarySwitched')).toMatchObject({ status: 'False', reason: 'SwitchPrimary' });
    expect(status.currentPrimary).toBe('repl-0');
    h.emulator.tick();
    status = h.get(MARIADB_KIND, 'repl').status as any;
    expect(status).toMatchObject({ currentPrimary: 'repl-2', currentPrimaryPodIndex: 2 });
    expect(status.replication.roles).toEqual({ 'repl-0': 'Replica', 'repl-1': 'Replica', 'repl-2': 'Primary' });
    expect(Object.keys(status.replication.replicas)).toEqual(['repl-0', 'repl-1']);
    expect(condition(status, 'Ready')?.status).toBe('True');
    expect(condition(status, 'PrimarySwitched')).toMatchObject({ status: 'True', message: 'Switchover complete' });
    expect(h.emulator.settle()).toBe(1);
    expect(condition(h.get(MARIADB_KIND, 'repl').status, 'PrimarySwitched')?.status).toBe('True');
    expect(h.upstreamStatusErrors(MARIADB_KIND)).toEqual([]);
  });

  it('CloudNativePG: a targetPrimary written to the status (kubectl cnpg promote) is one round "Switchover in progress", then the new primary, relabelled', () => {
    const h = harness();
    h.create(CNPG_CLUSTER_KIND, 'pg', { instances: 3, storage: { size: '1Gi' } });
    h.emulator.settle();
    expect(roleLabels(h)).toEqual({ 'pg-1': 'primary', 'pg-2': 'replica', 'pg-3': 'replica' });
    const cr = h.get(CNPG_CLUSTER_KIND, 'pg');
    h.store.update(
      CNPG_CLUSTER_KIND,
      { ...cr, status: { ...(cr.status as object), targetPrimary: 'pg-3', targetPrimaryTimestamp: '2026-12-04T20:00:00.000000Z', phase: 'Switchover in progress', phaseReason: 'Switching over to pg-3' } },
      { subresource: 'status' },
    );
    h.emulator.tick();
    let status = h.get(CNPG_CLUSTER_KIND, 'pg').status as any;
    expect(status).toMatchObject({ phase: 'Switchover in progress', phaseReason: 'Switching over to pg-3', currentPrimary: 'pg-1', targetPrimary: 'pg-3' });
    expect(roleLabels(h)['pg-1']).toBe('primary');
    h.emulator.tick();
    status = h.get(CNPG_CLUSTER_KIND, 'pg').status as any;
    expect(status).toMatchObject({ phase: 'Cluster in healthy state', currentPrimary: 'pg-3', targetPrimary: 'pg-3', targetPrimaryTimestamp: '2026-12-04T20:00:00.000000Z' });
    expect(typeof status.currentPrimaryTimestamp).toBe('string');
    // the pods are relabelled in the round the status says so (the -rw Service follows at once)
    expect(roleLabels(h)).toEqual({ 'pg-1': 'replica', 'pg-2': 'replica', 'pg-3': 'primary' });
    h.emulator.settle();
    expect((h.get(CNPG_CLUSTER_KIND, 'pg').status as any).currentPrimary).toBe('pg-3');
    expect(h.upstreamStatusErrors(CNPG_CLUSTER_KIND)).toEqual([]);
  });

  it('CloudNativePG: a targetPrimary written during a rolling upgrade stays asked for, and is carried out once the cluster is healthy', () => {
    const h = harness();
    h.create(CNPG_CLUSTER_KIND, 'pg', { instances: 3, storage: { size: '1Gi' } });
    h.emulator.settle();
    // a minor upgrade rolling through the instances: the operator does not switch over in the middle of it
    h.patchSpec(CNPG_CLUSTER_KIND, 'pg', s => (s.imageName = 'ghcr.io/cloudnative-pg/postgresql:17.6'));
    h.emulator.tick();
    const cr = h.get(CNPG_CLUSTER_KIND, 'pg');
    h.store.update(CNPG_CLUSTER_KIND, { ...cr, status: { ...(cr.status as object), targetPrimary: 'pg-2' } }, { subresource: 'status' });
    h.emulator.tick();
    expect((h.get(CNPG_CLUSTER_KIND, 'pg').status as any).phase).not.toBe('Cluster in healthy state');
    expect(h.get(CNPG_CLUSTER_KIND, 'pg').status).toMatchObject({ currentPrimary: 'pg-1', targetPrimary: 'pg-2' });
    h.emulator.settle();
    expect(h.get(CNPG_CLUSTER_KIND, 'pg').status).toMatchObject({ phase: 'Cluster in healthy state', currentPrimary: 'pg-2', targetPrimary: 'pg-2' });
    expect(roleLabels(h)).toEqual({ 'pg-1': 'replica', 'pg-2': 'primary', 'pg-3': 'replica' });
  });

  it('CloudNativePG: a lost primary is failed over as the operator tells it ("Initiating a failover", "Failing over from … to …"), the new primary relabelled, the old one back as a replica', () => {
    const h = harness();
    h.create(CNPG_CLUSTER_KIND, 'pg', { instances: 3, storage: { size: '1Gi' } });
    h.emulator.settle();
    h.emulator.failPrimary({ kind: 'Cluster', namespace: NS, name: 'pg' });
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      h.emulator.tick();
      const st = h.get(CNPG_CLUSTER_KIND, 'pg').status as any;
      seen.push(`${st.phase} | ${st.phaseReason ?? ''} | ${st.currentPrimary} → ${st.targetPrimary} | ${st.readyInstances}`);
    }
    expect(seen).toEqual([
      'Failing over | Initiating a failover from pg-1 | pg-1 → pending | 2',
      'Failing over | Failing over from pg-1 to pg-2 | pg-1 → pg-2 | 2',
      'Cluster in healthy state |  | pg-2 → pg-2 | 2',
    ]);
    expect(roleLabels(h)).toEqual({ 'pg-1': 'replica', 'pg-2': 'primary', 'pg-3': 'replica' });
    h.emulator.settle();
    expect((h.get(CNPG_CLUSTER_KIND, 'pg').status as any).readyInstances).toBe(3);
    expect(h.upstreamStatusErrors(CNPG_CLUSTER_KIND)).toEqual([]);
  });

  it('mariadb-operator: a lost primary moves spec.replication.primary.podIndex (autoFailover), then switches as a switchover does', () => {
    const h = harness();
    h.create(MARIADB_KIND, 'repl', { image: 'mariadb:11.4.2', replicas: 3, replication: { enabled: true } });
    h.emulator.settle();
    h.emulator.failPrimary({ kind: 'MariaDB', namespace: NS, name: 'repl' });
    // the round the pod is lost: one member fewer ready, the operator has not acted yet
    h.emulator.tick();
    expect((h.get(MARIADB_KIND, 'repl').spec as any).replication.primary?.podIndex).toBeUndefined();
    expect((h.get(MARIADB_KIND, 'repl').status as any).replicas).toBe(2);
    h.emulator.tick();
    expect((h.get(MARIADB_KIND, 'repl').spec as any).replication.primary.podIndex).toBe(1);
    let status = h.get(MARIADB_KIND, 'repl').status as any;
    expect(condition(status, 'Ready')).toMatchObject({ status: 'False', reason: 'SwitchPrimary', message: "Switching primary to 'repl-1'" });
    expect(status.replicas).toBe(2);
    h.emulator.tick();
    status = h.get(MARIADB_KIND, 'repl').status as any;
    expect(status).toMatchObject({ currentPrimary: 'repl-1', currentPrimaryPodIndex: 1 });
    h.emulator.settle();
    expect((h.get(MARIADB_KIND, 'repl').status as any).replicas).toBe(3);
    expect(h.upstreamStatusErrors(MARIADB_KIND)).toEqual([]);
  });

  it('the demo\'s switch: a new value of the fail-primary annotation loses the primary once, as failPrimary does', () => {
    const h = harness();
    h.create(CNPG_CLUSTER_KIND, 'pg', { instances: 3, storage: { size: '1Gi' } });
    h.emulator.settle();
    const annotate = (value: string) => {
      const cr = h.get(CNPG_CLUSTER_KIND, 'pg');
      h.store.update(CNPG_CLUSTER_KIND, { ...cr, metadata: { ...cr.metadata, annotations: { ...cr.metadata.annotations, [FAIL_PRIMARY_ANNOTATION]: value } } });
    };
    annotate('1');
    h.emulator.tick();
    expect((h.get(CNPG_CLUSTER_KIND, 'pg').status as any).phaseReason).toBe('Initiating a failover from pg-1');
    h.emulator.settle();
    expect((h.get(CNPG_CLUSTER_KIND, 'pg').status as any).currentPrimary).toBe('pg-2');
    // the same value again is no new failure; a new one is
    annotate('1');
    expect(h.emulator.settle()).toBe(1);
    annotate('2');
    h.emulator.settle();
    expect((h.get(CNPG_CLUSTER_KIND, 'pg').status as any).currentPrimary).not.toBe('pg-2');
  });

  it('an object without a primary to lose is refused', () => {
    const h = harness();
    h.create(MARIADB_KIND, 'single', { image: 'mariadb:11.4.2', replicas: 1 });
    h.emulator.settle();
    expect(() => h.emulator.failPrimary({ kind: 'MariaDB', namespace: NS, name: 'single' })).toThrow(/has no primary to lose/);
  });
});
