import { describe, expect, it } from '@jest/globals';
import { adapters } from '../adapters/registry';
import { parseEngineConfig } from './parseEngineConfig';

const GOOD = `
engines:
  mariadb:
    versions: ["11.8", "11.4"]
  mysql:
    versions: ["8.4.3"]
    sizes:
      - name: dev
        title: Development
        storage: { size: 5Gi }
        resources: { requests: { cpu: 250m, memory: 1Gi } }
      - name: prod
        title: Production
        storage: { size: 200Gi }
        resources:
          requests: { cpu: 2, memory: 8Gi }
          limits: { memory: 8Gi }
  redis: {}
`;

const errorsOf = (text: string) => {
  const result = parseEngineConfig(text, adapters);
  return 'errors' in result ? result.errors : [];
};

describe('parseEngineConfig', () => {
  it('reads versions and sizes per engine, quantities as text', () => {
    expect(parseEngineConfig(GOOD, adapters)).toEqual({
      config: {
        engines: {
          mariadb: { versions: ['11.8', '11.4'] },
          mysql: {
            versions: ['8.4.3'],
            sizes: [
              {
                name: 'dev',
                title: 'Development',
                storage: { size: '5Gi' },
                resources: { requests: { cpu: '250m', memory: '1Gi' } },
              },
              {
                name: 'prod',
                title: 'Production',
                storage: { size: '200Gi' },
                resources: {
                  requests: { cpu: '2', memory: '8Gi' },
                  limits: { memory: '8Gi' },
                },
              },
            ],
          },
          redis: {},
        },
      },
    });
  });

  it('accepts every adapter’s own version list (they are runnable by definition)', () => {
    const text = `engines:\n${adapters
      .map(a => `  ${a.engine}: { versions: ${JSON.stringify(a.versions)} }`)
      .join('\n')}\n`;
    expect(errorsOf(text)).toEqual([]);
  });

  const size = (patch: string) =>
    `engines:\n  redis:\n    sizes:\n      - { name: s, title: S, storage: { size: 1Gi }, resources: { requests: { cpu: 1, memory: 1Gi } ${patch} } }\n`;

  it.each<[string, string, string]>([
    [
      'an unknown engine',
      'engines: { postgres: { versions: ["16"] } }',
      'engines.postgres: unknown key',
    ],
    [
      'an unknown key',
      'engines: { mariadb: { version: ["11.4"] } }',
      'engines.mariadb.version: unknown key',
    ],
    ['no engines key', 'versions: ["11.4"]', 'versions: unknown key'],
    [
      'a list instead of a mapping',
      '- mariadb',
      'must be a mapping with the key "engines"',
    ],
    ['bad YAML', 'engines: { mariadb: [', 'invalid YAML at line 1'],
    [
      'an unquoted version',
      'engines: { mariadb: { versions: [11.4] } }',
      'engines.mariadb.versions[0]: 11.4 is a YAML number; quote it',
    ],
    [
      'a version that is no number',
      'engines: { mariadb: { versions: ["11.x"] } }',
      'engines.mariadb.versions[0]: "11.x" is not a dotted version number',
    ],
    [
      'a version older than the operator runs',
      'engines: { mariadb: { versions: ["11.4", "10.5"] } }',
      'engines.mariadb.versions[1]: "10.5" is older than 10.6',
    ],
    [
      'a version newer than the operator runs',
      'engines: { mysql: { versions: ["9.2.0"] } }',
      'engines.mysql.versions[0]: "9.2.0" is newer than 9.1.0',
    ],
    [
      'a short version where the CRD wants three parts',
      'engines: { mysql: { versions: ["8.4"] } }',
      'engines.mysql.versions[0]: "8.4" must have 3 parts',
    ],
    [
      'a deprecated Elasticsearch',
      'engines: { elasticsearch: { versions: ["7.17.0"] } }',
      'engines.elasticsearch.versions[0]: "7.17.0" is older than 8.0.0',
    ],
    [
      'a duplicate version',
      'engines: { redis: { versions: ["7.0.15", "7.0.15"] } }',
      'engines.redis.versions[1]: duplicate "7.0.15" (also engines.redis.versions[0])',
    ],
    [
      'an empty version list',
      'engines: { redis: { versions: [] } }',
      'engines.redis.versions: must NOT have fewer than 1 items',
    ],
    [
      'a size without title',
      'engines: { redis: { sizes: [ { name: s, storage: { size: 1Gi }, resources: { requests: { cpu: 1, memory: 1Gi } } } ] } }',
      'engines.redis.sizes[0].title: required',
    ],
    [
      'a size without a memory request',
      'engines: { redis: { sizes: [ { name: s, title: S, storage: { size: 1Gi }, resources: { requests: { cpu: 1 } } } ] } }',
      'engines.redis.sizes[0].resources.requests.memory: required',
    ],
    [
      'a bad storage quantity',
      size('').replace('size: 1Gi', 'size: 1 GB'),
      'engines.redis.sizes[0].storage.size: "1 GB" is not a quantity',
    ],
    [
      'zero storage',
      size('').replace('size: 1Gi', 'size: 0'),
      'engines.redis.sizes[0].storage.size: must be greater than zero',
    ],
    [
      'a bad cpu',
      size('').replace('cpu: 1', 'cpu: one'),
      'engines.redis.sizes[0].resources.requests.cpu: "one" is not a quantity',
    ],
    [
      'a request above its limit',
      size(', limits: { memory: 512Mi }'),
      'engines.redis.sizes[0].resources.requests.memory: must be less than or equal to memory limit of 512Mi',
    ],
    [
      'ephemeral-storage',
      size(', limits: { ephemeral-storage: 1Gi }'),
      'engines.redis.sizes[0].resources.limits["ephemeral-storage"]: unknown key',
    ],
    [
      'a bad size name',
      size('').replace('name: s', 'name: Big_One'),
      'engines.redis.sizes[0].name: "Big_One" must be lower-case letters',
    ],
    [
      'a duplicate size name',
      'engines: { redis: { sizes: [ { name: s, title: S, storage: { size: 1Gi }, resources: { requests: { cpu: 1, memory: 1Gi } } }, { name: s, title: T, storage: { size: 2Gi }, resources: { requests: { cpu: 1, memory: 1Gi } } } ] } }',
      'engines.redis.sizes[1].name: duplicate "s" (also engines.redis.sizes[0])',
    ],
  ])('names the key of %s', (_name, text, expected) => {
    expect(errorsOf(text)).toEqual(
      expect.arrayContaining([expect.stringContaining(expected)]),
    );
  });

  it('reports every problem at once', () => {
    expect(
      errorsOf(
        'engines: { mariadb: { versions: ["9.0"] }, mysql: { versions: ["8.0"] } }',
      ),
    ).toEqual([
      expect.stringMatching(
        /^engines\.mariadb\.versions\[0\]: "9\.0" is older than 10\.6/,
      ),
      expect.stringMatching(
        /^engines\.mysql\.versions\[0\]: "8\.0" must have 3 parts/,
      ),
    ]);
  });

  it('refuses an engine this apiserver has no adapter for', () => {
    const onlyRedis = adapters.filter(a => a.engine === 'redis');
    const result = parseEngineConfig(
      'engines: { mariadb: { versions: ["11.4"] } }',
      onlyRedis,
    );
    expect(result).toEqual({
      errors: [
        'engines.mariadb: this apiserver has no writable adapter for mariadb',
      ],
    });
  });
});
