import { describe, it, expect } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import {
  adapters,
  engineNames,
  findAdapterForEngine,
  findAdapterForKind,
  findAdapterForObject,
  topologyNames,
} from './registry';
import { OPERATORS_DIR } from './__testUtils__/operatorFiles';

describe('adapter registry', () => {
  it('has one adapter per engine and one folder per adapter id', () => {
    // The engine set is the registry's: no other list to keep in step, so only uniqueness.
    const engines = engineNames();
    expect(new Set(engines).size).toBe(engines.length);
    expect(engines).toEqual(adapters.map(a => a.engine));
    for (const adapter of adapters) {
      expect(
        fs.existsSync(path.join(__dirname, adapter.id, 'adapter.ts')),
      ).toBe(true);
      // Ids are the upstream folder names of ../shared/operators.
      expect(fs.existsSync(path.join(OPERATORS_DIR, adapter.id))).toBe(true);
    }
  });

  it.each([
    ['mariadb-operator', 4],
    ['eck', 4],
    ['rabbitmq-cluster-operator', 3],
    ['redis-operator', 2],
    ['mysql-operator', 2],
  ])('%s has capability level %d', (id, level) => {
    expect(adapters.find(a => a.id === id)?.capabilityLevel).toBe(level);
  });

  it('declares kinds whose CRD file exists upstream, each claimed by one adapter only', () => {
    const seen = new Set<string>();
    for (const adapter of adapters) {
      for (const kind of adapter.kinds) {
        const key = `${kind.group}/${kind.kind}`;
        expect(seen.has(key)).toBe(false);
        seen.add(key);
        expect(
          fs.existsSync(
            path.join(
              OPERATORS_DIR,
              adapter.id,
              'crds',
              `${kind.group}_${kind.plural}.yaml`,
            ),
          ),
        ).toBe(true);
        expect(kind.topologies.length).toBeGreaterThan(0);
      }
    }
  });

  it('finds adapters by kind, object and engine', () => {
    expect(findAdapterForKind('k8s.mariadb.com', 'MariaDB')?.adapter.id).toBe(
      'mariadb-operator',
    );
    expect(findAdapterForKind('k8s.mariadb.com', 'MaxScale')).toBeUndefined();
    expect(
      findAdapterForObject(
        'redis.redis.opstreelabs.in/v1beta2',
        'RedisSentinel',
      )?.kind.plural,
    ).toBe('redissentinels');
    expect(
      findAdapterForObject(
        'elasticsearch.k8s.elastic.co/v1beta1',
        'Elasticsearch',
      ),
    ).toBeUndefined();
    expect(findAdapterForObject(undefined, 'Elasticsearch')).toBeUndefined();
    expect(findAdapterForEngine('rabbitmq')?.id).toBe(
      'rabbitmq-cluster-operator',
    );
    expect(findAdapterForEngine('postgresql')?.id).toBe('cloudnative-pg');
    expect(findAdapterForEngine('oracle')).toBeUndefined();
  });

  it('matches the group too, not only the kind name', () => {
    // every operator has a kind named Cluster-ish somewhere; only the group says whose
    expect(
      findAdapterForKind('postgresql.cnpg.io', 'Cluster')?.adapter.id,
    ).toBe('cloudnative-pg');
    expect(findAdapterForKind('example.com', 'Cluster')).toBeUndefined();
    expect(findAdapterForKind('k8s.mariadb.com', 'Redis')).toBeUndefined();
  });

  it('reads a core apiVersion (no group) as the empty group', () => {
    const core = {
      ...adapters[0],
      id: 'core',
      kinds: [
        {
          group: '',
          version: 'v1',
          plural: 'things',
          kind: 'Thing',
          topologies: ['standalone' as const],
        },
      ],
    };
    expect(findAdapterForObject('v1', 'Thing', [core])?.adapter.id).toBe(
      'core',
    );
    expect(findAdapterForObject('/v1', 'Thing', [core])?.adapter.id).toBe(
      'core',
    );
    expect(findAdapterForObject('v2', 'Thing', [core])).toBeUndefined();
  });

  it('lists every topology once, from write sides and kinds, in registry order', () => {
    expect(topologyNames()).toEqual([
      'standalone',
      'replication',
      'galera',
      'innodbcluster',
      'sentinel',
      'cluster',
    ]);
    const readOnly = {
      ...adapters[0],
      write: undefined,
      kinds: [{ ...adapters[0].kinds[0], topologies: ['galera' as const] }],
    };
    expect(topologyNames([readOnly])).toEqual(['galera']);
    expect(topologyNames([])).toEqual([]);
  });
});
