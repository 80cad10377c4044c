import { describe, expect, it } from '@jest/globals';
import { servedNames } from './servedNames';

const claim = (key: string, engine: string, kind: string) => ({
  key,
  name: 'orders',
  engine,
  kind,
});

describe('servedNames', () => {
  it.each([
    { claims: [claim('a', 'redis', 'Redis')], names: { a: 'orders' } },
    {
      claims: [claim('a', 'redis', 'Redis'), claim('b', 'mariadb', 'MariaDB')],
      names: { a: 'orders.redis', b: 'orders.mariadb' },
    },
    {
      claims: [
        claim('a', 'redis', 'Redis'),
        claim('b', 'redis', 'RedisCluster'),
        claim('c', 'mysql', 'InnoDBCluster'),
      ],
      names: { a: 'orders.redis', b: 'orders.rediscluster', c: 'orders.mysql' },
    },
  ])('$names', ({ claims, names }) => {
    const out = servedNames(claims);
    expect(Object.fromEntries(out)).toEqual(names);
    expect(new Set(out.values()).size).toBe(claims.length);
  });
});
