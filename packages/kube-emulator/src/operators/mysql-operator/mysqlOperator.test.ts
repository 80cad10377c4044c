import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { harness, NS } from '../__testutils__/harness';
import { UPSTREAM_OPERATORS_DIR } from '../__testutils__/upstream';
import { INNODBCLUSTER_KIND } from './mysqlOperator';

// The only real observation upstream: `kubectl get innodbcluster --watch` in the operator README.
const readme = fs.readFileSync(
  path.join(UPSTREAM_OPERATORS_DIR, 'mysql-operator/README.md'),
  'utf8',
);
const watchedStatuses = [
  ...readme.matchAll(/^mycluster\s+([A-Z_]+)\s+\d+/gm),
].map(m => m[1]);
// The ClusterDiagStatus values documented from diagnose.py.
const diagParagraph = readme.slice(
  readme.indexOf('`ClusterDiagStatus` ('),
  readme.indexOf('\n\n', readme.indexOf('`ClusterDiagStatus` (')),
);
const diagStatuses = [...diagParagraph.matchAll(/`([A-Z_]+)`/g)].map(m => m[1]);

const spec = {
  secretName: 'mypwds',
  instances: 3,
  router: { instances: 1 },
  tlsUseSelfSigned: true,
  version: '9.1.0',
};
const ref = { kind: 'InnoDBCluster', namespace: NS, name: 'mycluster' };
const cluster = (h: ReturnType<typeof harness>) =>
  (h.get(INNODBCLUSTER_KIND, 'mycluster').status as any)?.cluster;

describe('mysqlOperator', () => {
  it('goes from no status through the README sequence to ONLINE with every instance online', () => {
    expect(watchedStatuses.length).toBeGreaterThan(0);
    const h = harness();
    h.create(INNODBCLUSTER_KIND, 'mycluster', spec);
    expect(h.get(INNODBCLUSTER_KIND, 'mycluster').status).toBeUndefined();
    h.emulator.settle();
    const seen = h
      .statuses(INNODBCLUSTER_KIND, 'mycluster')
      .map(s => s.cluster.status);
    const distinct = seen.filter((s, i) => s !== seen[i - 1]);
    // Starts and ends as the README shows; every value is a documented ClusterDiagStatus.
    expect(distinct[0]).toBe(watchedStatuses[0]);
    expect(distinct[distinct.length - 1]).toBe(
      watchedStatuses[watchedStatuses.length - 1],
    );
    expect(distinct.filter(s => !diagStatuses.includes(s))).toEqual([]);
    const status = h.get(INNODBCLUSTER_KIND, 'mycluster').status as any;
    expect(status.cluster.onlineInstances).toBe(3);
    expect(status.version).toBe('9.1.0');
    expect(typeof status.createTime).toBe('string');
    expect(h.upstreamStatusErrors(INNODBCLUSTER_KIND)).toEqual([]);
  });

  it('creates the StatefulSet, router Deployment, Services and Secrets with owner references', () => {
    const h = harness();
    const cr = h.create(INNODBCLUSTER_KIND, 'mycluster', spec);
    h.emulator.settle();
    expect(h.owned(cr).sort()).toEqual(
      [
        'deployments/mycluster-router',
        'secrets/mycluster-privsecrets',
        'secrets/mycluster-router',
        'secrets/mypwds',
        'services/mycluster',
        'services/mycluster-instances',
        'statefulsets/mycluster',
      ].sort(),
    );
    const pwds = h.store.get(
      { group: '', version: 'v1', plural: 'secrets' },
      NS,
      'mypwds',
    ) as any;
    expect(Object.keys(pwds.data).sort()).toEqual([
      'rootHost',
      'rootPassword',
      'rootUser',
    ]);
    const svc = h.store.get(
      { group: '', version: 'v1', plural: 'services' },
      NS,
      'mycluster',
    ) as any;
    expect(svc.spec.ports.map((p: any) => p.port)).toEqual(
      expect.arrayContaining([3306, 6446, 6447]),
    );
  });

  it('keeps ONLINE during an upgrade with fewer instances online, and reports the new version once done', () => {
    const h = harness();
    h.create(INNODBCLUSTER_KIND, 'mycluster', spec);
    h.emulator.settle();
    h.patchSpec(INNODBCLUSTER_KIND, 'mycluster', s => (s.version = '9.1.1'));
    h.emulator.tick();
    const during = h.get(INNODBCLUSTER_KIND, 'mycluster').status as any;
    expect(during.cluster).toMatchObject({
      status: 'ONLINE',
      onlineInstances: 2,
    });
    expect(during.version).toBe('9.1.0');
    h.emulator.settle();
    const after = h.get(INNODBCLUSTER_KIND, 'mycluster').status as any;
    expect(after.cluster).toMatchObject({
      status: 'ONLINE',
      onlineInstances: 3,
    });
    expect(after.version).toBe('9.1.1');
  });

  it.each([
    ['degraded', { status: 'ONLINE_PARTIAL', onlineInstances: 2 }],
    ['failed', { status: 'OFFLINE', onlineInstances: 0 }],
  ] as const)('reports %s on demand', (mode, expected) => {
    expect(diagStatuses).toContain(expected.status);
    const h = harness();
    h.create(INNODBCLUSTER_KIND, 'mycluster', spec);
    h.emulator.settle();
    h.emulator.setHealth(ref, mode);
    h.emulator.tick();
    expect(cluster(h)).toMatchObject(expected);
  });

  it('shows FINALIZING for a round on delete, then removes dependents and its finalizer', () => {
    const h = harness();
    const cr = h.create(INNODBCLUSTER_KIND, 'mycluster', spec);
    h.emulator.settle();
    expect(
      h.get(INNODBCLUSTER_KIND, 'mycluster').metadata.finalizers,
    ).toContain('mysql.oracle.com/cluster');
    h.store.delete(INNODBCLUSTER_KIND, NS, 'mycluster');
    h.emulator.tick();
    expect(cluster(h).status).toBe('FINALIZING');
    expect(diagStatuses).toContain('FINALIZING');
    h.emulator.tick();
    expect(h.store.get(INNODBCLUSTER_KIND, NS, 'mycluster')).toBeUndefined();
    expect(h.owned(cr)).toEqual([]);
  });
});
