import { describe, expect, it } from '@jest/globals';
import type {
  DatabaseInstanceSpec,
  DatabaseTopology,
} from '@internal/plugin-databases-common';
import { replicasAllowed } from '../writes/replicaRule';
import { adapters } from './registry';

/**
 * The replica counts each topology accepted before the rules became data (pinned behaviour).
 * An operator added since brings its rules as data from the start, and its adapter's own tests
 * check its counts.
 */
const ALLOWED: Record<string, (n: number) => boolean> = {
  'mariadb/standalone': n => n === 1,
  'mariadb/replication': n => n >= 2,
  'mariadb/galera': n => n >= 3 && n % 2 === 1,
  'mysql/innodbcluster': n => n <= 9,
  'redis/standalone': n => n === 1,
  'redis/replication': n => n >= 2,
  'redis/sentinel': n => n >= 2,
  'redis/cluster': n => n >= 3,
  'elasticsearch/cluster': () => true,
  'rabbitmq/standalone': n => n === 1,
  'rabbitmq/cluster': n => n >= 3 && n % 2 === 1,
};

const cases = adapters.flatMap(a =>
  a.write!.topologies.map(t => [`${a.engine}/${t}`, a, t] as const),
);
const pinned = cases.filter(([id]) => id in ALLOWED);
const COUNTS = Array.from({ length: 12 }, (_, i) => i + 1);

describe('replica rules as data', () => {
  it('every pinned engine and topology is still offered', () => {
    expect(pinned.map(([id]) => id).sort()).toEqual(
      Object.keys(ALLOWED).sort(),
    );
  });

  it.each(pinned)(
    '%s: validate refuses exactly the counts the rule refuses, with its message',
    (id, adapter, topology) => {
      const write = adapter.write!;
      const rule = write.rules.replicas(topology as DatabaseTopology);
      const spec = (replicas: number): DatabaseInstanceSpec => ({
        ...write.defaults(topology),
        engine: adapter.engine,
        topology,
        replicas,
      });
      for (const n of COUNTS) {
        const causes = write
          .validate(spec(n))
          .filter(c => c.field === 'spec.replicas');
        expect({ n, allowed: replicasAllowed(rule, n) }).toEqual({
          n,
          allowed: ALLOWED[id](n),
        });
        expect({ n, causes: causes.map(c => c.message) }).toEqual({
          n,
          causes: ALLOWED[id](n)
            ? []
            : [`Invalid value: ${n}: ${rule.message}`],
        });
      }
    },
  );

  it.each(cases)(
    '%s: the default count obeys the rule',
    (_id, adapter, topology) => {
      const write = adapter.write!;
      const rule = write.rules.replicas(topology as DatabaseTopology);
      expect(replicasAllowed(rule, write.defaults(topology).replicas)).toBe(
        true,
      );
    },
  );
});
