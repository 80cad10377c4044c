import { describe, expect, it } from '@jest/globals';
import { adapters } from '../adapters/registry';
import { compareQuantities, parseQuantity } from '../writes/quantity';
import { defaultSizes } from './defaultSizes';

const writable = adapters.map(a => [a.engine, a.write!] as const);
const amount = (text: string | undefined) => parseQuantity(text)!.nanos;

describe('defaultSizes', () => {
  it('scales the engine defaults: small as is, medium and large with more compute and much more storage', () => {
    expect(
      defaultSizes({
        version: '1',
        replicas: 1,
        storage: { size: '10Gi' },
        resources: {
          requests: { cpu: '250m', memory: '512Mi' },
          limits: { cpu: '1', memory: '1Gi' },
        },
      }),
    ).toEqual([
      {
        name: 'small',
        title: 'Small',
        storage: { size: '10Gi' },
        resources: {
          requests: { cpu: '250m', memory: '512Mi' },
          limits: { cpu: '1', memory: '1Gi' },
        },
      },
      {
        name: 'medium',
        title: 'Medium',
        storage: { size: '50Gi' },
        resources: {
          requests: { cpu: '500m', memory: '1Gi' },
          limits: { cpu: '2', memory: '2Gi' },
        },
      },
      {
        name: 'large',
        title: 'Large',
        storage: { size: '100Gi' },
        resources: {
          requests: { cpu: '1', memory: '2Gi' },
          limits: { cpu: '4', memory: '4Gi' },
        },
      },
    ]);
  });

  it('follows each engine: Elasticsearch gets GiBs of memory where Redis gets MiBs', () => {
    const small = (engine: string) =>
      defaultSizes(
        writable.find(([e]) => e === engine)![1].defaults('cluster'),
      )[0];
    expect(small('elasticsearch').resources.requests.memory).toBe('2Gi');
    expect(small('redis').resources.requests.memory).toBe('128Mi');
  });

  it.each(writable)(
    '%s: small is exactly what a create without resources gets',
    (_engine, write) => {
      const defaults = write.defaults(write.defaultTopology);
      const [small] = defaultSizes(defaults);
      expect(small.storage).toEqual(defaults.storage);
      expect(small.resources).toEqual(defaults.resources);
    },
  );

  it.each(writable)(
    '%s: every size grows, and is a spec the engine accepts',
    (engine, write) => {
      const topology = write.defaultTopology;
      const defaults = write.defaults(topology);
      const sizes = defaultSizes(defaults);
      expect(sizes.map(s => s.name)).toEqual(['small', 'medium', 'large']);
      for (let i = 1; i < sizes.length; i++) {
        const [a, b] = [sizes[i - 1], sizes[i]];
        expect(amount(b.storage.size)).toBeGreaterThan(amount(a.storage.size));
        expect(amount(b.resources.requests.cpu)).toBeGreaterThan(
          amount(a.resources.requests.cpu),
        );
        expect(amount(b.resources.requests.memory)).toBeGreaterThan(
          amount(a.resources.requests.memory),
        );
      }
      for (const size of sizes) {
        const causes = write.validate({
          engine,
          topology,
          version: defaults.version,
          replicas: defaults.replicas,
          storage: size.storage,
          resources: size.resources,
        } as any);
        expect({ size: size.name, causes }).toEqual({
          size: size.name,
          causes: [],
        });
        const limited = Object.entries(size.resources.limits ?? {}) as Array<
          ['cpu' | 'memory', string]
        >;
        for (const [name, limit] of limited) {
          expect(
            compareQuantities(
              parseQuantity(size.resources.requests[name])!,
              parseQuantity(limit)!,
            ),
          ).toBeLessThanOrEqual(0);
        }
      }
    },
  );
});
