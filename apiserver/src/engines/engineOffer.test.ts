import { describe, expect, it } from '@jest/globals';
import { adapters, findAdapterForEngine } from '../adapters/registry';
import { defaultSizes } from './defaultSizes';
import { engineOffer } from './engineOffer';

const mariadb = findAdapterForEngine('mariadb')!;

describe('engineOffer', () => {
  it("offers the adapter's topologies, versions, defaults, derived sizes and replica rules", () => {
    const offer = engineOffer(mariadb);
    expect(offer.topologies).toEqual(['standalone', 'replication', 'galera']);
    expect(offer.versions).toEqual(mariadb.versions);
    expect(offer.defaults).toMatchObject({
      engine: 'mariadb',
      topology: 'standalone',
      version: '11.4',
      replicas: 1,
    });
    expect(offer.sizes).toEqual(
      defaultSizes(mariadb.write!.defaults('standalone')),
    );
    expect(offer.replicas).toEqual({
      standalone: {
        min: 1,
        max: 1,
        default: 1,
        description: 'standalone runs exactly 1 replica',
      },
      replication: {
        min: 2,
        default: 3,
        description:
          'replication needs at least 2 replicas (a primary and a replica)',
      },
      galera: {
        min: 3,
        odd: true,
        default: 3,
        description: 'galera needs an odd number of replicas, at least 3',
      },
    });
  });

  it('reports the configured versions and sizes, and a default version among them', () => {
    const sizes = [
      {
        name: 'dev',
        title: 'Dev',
        storage: { size: '1Gi' },
        resources: { requests: { cpu: '100m', memory: '256Mi' } },
      },
    ];
    const offer = engineOffer(mariadb, { versions: ['11.8', '10.11'], sizes });
    expect(offer.versions).toEqual(['11.8', '10.11']);
    expect(offer.defaults?.version).toBe('11.8');
    expect(offer.sizes).toEqual(sizes);
    expect(
      engineOffer(mariadb, { versions: ['11.8', '11.4'] }).defaults?.version,
    ).toBe('11.4');
  });

  it.each(adapters.map(a => [a.engine, a] as const))(
    '%s: a replica rule for every topology offered, its default inside it',
    (_e, adapter) => {
      const offer = engineOffer(adapter);
      expect(Object.keys(offer.replicas ?? {}).sort()).toEqual(
        [...offer.topologies].sort(),
      );
      for (const [topology, rule] of Object.entries(offer.replicas ?? {})) {
        if (!rule) throw new Error(`no replica rule for ${topology}`);
        const n = rule.default;
        const inside =
          n >= rule.min &&
          n <= (rule.max ?? Infinity) &&
          !(rule.odd && n % 2 === 0);
        expect({ topology, rule, inside }).toEqual({
          topology,
          rule,
          inside: true,
        });
      }
    },
  );

  it.each(adapters.map(a => [a.engine, a] as const))(
    '%s: the longest name offered is the one create accepts',
    (_e, adapter) => {
      const offer = engineOffer(adapter);
      expect(offer.maxNameLength).toBe(adapter.write!.maxNameLength);
      expect(offer.maxNameLength).toBeLessThanOrEqual(63);
    },
  );

  it('lets a read-only adapter list what it reads, and nothing to create', () => {
    const { write: _none, ...readOnly } = mariadb;
    expect(engineOffer(readOnly)).toEqual({
      topologies: ['standalone', 'replication', 'galera'],
      versions: mariadb.versions,
      // backups are the backup side's, not the write side's
      backup: { ...mariadb.backups!.capabilities },
    });
  });

  it('says why an engine has no backups, with nothing offered', () => {
    const { backups: _none, ...withoutBackups } = mariadb;
    expect(engineOffer(withoutBackups).backup).toEqual({
      onDemand: false,
      schedule: false,
      restore: false,
      pointInTime: false,
      reason: `${mariadb.operator} has no backup or restore objects`,
    });
  });
});
