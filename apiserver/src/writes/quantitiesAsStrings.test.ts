import { describe, expect, it } from '@jest/globals';
import { quantitiesAsStrings } from './quantitiesAsStrings';

describe('quantitiesAsStrings', () => {
  it('writes numeric quantities as strings and leaves everything else as it is', () => {
    const spec = {
      engine: 'redis',
      storage: { size: 1.5, storageClassName: 'fast' },
      resources: { requests: { cpu: 0.5, memory: '128Mi' }, limits: { memory: 256 } },
      replicas: 3,
    } as any;
    expect(quantitiesAsStrings(spec)).toEqual({
      engine: 'redis',
      storage: { size: '1.5', storageClassName: 'fast' },
      resources: { requests: { cpu: '0.5', memory: '128Mi' }, limits: { memory: '256' } },
      replicas: 3,
    });
    expect(spec.storage.size).toBe(1.5);
  });

  it('leaves values of the wrong shape for validation to name', () => {
    const odd = { engine: 'redis', storage: 'lots', resources: { requests: [1] } } as any;
    expect(quantitiesAsStrings(odd)).toEqual(odd);
    expect(quantitiesAsStrings({ engine: 'redis', storage: { size: Infinity } } as any).storage).toEqual({ size: Infinity });
  });
});
