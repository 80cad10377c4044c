import { describe, expect, it } from '@jest/globals';
import { pruneUnknownFields } from './unknownFields';

describe('pruneUnknownFields', () => {
  it.each([
    [{ spec: { engine: 'mariadb' } }, []],
    [{ spec: { engine: 'mariadb', bogus: 1 } }, ['spec.bogus']],
    [{ spec: { storage: { size: '1Gi', iops: 3 } } }, ['spec.storage.iops']],
    [{ metadata: { name: 'x', colour: 'red' }, extra: 1 }, ['metadata.colour', 'extra']],
    // free-form maps and status are never reported
    [{ metadata: { labels: { anything: 'x' } }, status: { whatever: true }, spec: { resources: { requests: { gpu: '1' } } } }, []],
    // names of Object's own members are unknown fields like any other (found by test/src/reliability)
    [JSON.parse('{"constructor":[],"spec":{"toString":1,"__proto__":{"engine":"x"}},"metadata":{"hasOwnProperty":"y"}}'), ['constructor', 'spec.toString', 'spec.__proto__', 'metadata.hasOwnProperty']],
  ])('%j ⇒ %j', (obj, unknown) => {
    const result = pruneUnknownFields(obj);
    expect(result.unknown).toEqual(unknown);
    expect(pruneUnknownFields(result.pruned).unknown).toEqual([]);
  });

  it('keeps every known field', () => {
    const obj = {
      apiVersion: 'v',
      kind: 'k',
      metadata: { name: 'n', labels: { a: 'b' } },
      spec: { engine: 'redis', version: '7', topology: 'cluster', replicas: 3, storage: { size: '1Gi', storageClassName: 'fast' }, resources: { limits: { cpu: '1' } }, deletionProtection: true },
    };
    expect(pruneUnknownFields(obj).pruned).toEqual(obj);
  });
});
