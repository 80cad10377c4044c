import { describe, expect, it } from '@jest/globals';
import { makeInstance } from '../server/__testutils__/fixtures';
import { buildTable, encodeTableBytes, type IncludeObject } from './buildTable';
import { backupTablePrinter } from './backupTablePrinter';
import { instanceTablePrinter } from './instanceTablePrinter';
import { toPartialObjectMetadata } from '../server/encode';

describe('encodeTableBytes', () => {
  const objects = [
    makeInstance({ name: 'a', created: '2025-01-01T00:00:00Z' }),
    makeInstance({ name: 'b', namespace: 'team-b', phase: 'Degraded', ready: 0, created: '2025-01-01T00:09:30Z' }),
    { ...makeInstance({ name: 'c' }), metadata: { name: 'c', namespace: 'team-a', resourceVersion: '7' } },
  ];
  const now = Date.parse('2025-01-01T00:10:00Z');

  it.each<IncludeObject>(['Metadata', 'Object', 'None'])('encodes what buildTable builds (includeObject=%s), ages rendered per call', includeObject => {
    const opts = { printer: instanceTablePrinter, objects, version: 'v1', includeObject, listMeta: { resourceVersion: '42' }, now };
    const bytes = Buffer.concat(
      encodeTableBytes({
        ...opts,
        encodedMetadataOf: o => [Buffer.from(JSON.stringify(toPartialObjectMetadata(o)))],
        encodedObjectOf: o => Buffer.from(JSON.stringify(o)),
      }),
    );
    expect(JSON.parse(bytes.toString())).toEqual(buildTable({ ...opts, metadataOf: o => toPartialObjectMetadata(o) }));
    // cached rows still get the age of the moment of each call
    const later = JSON.parse(Buffer.concat(encodeTableBytes({ ...opts, now: now + 3 * 3600_000, encodedMetadataOf: () => [Buffer.from('{}')], encodedObjectOf: () => Buffer.from('{}') })).toString());
    expect(later.rows.map((r: any) => r.cells[5])).toEqual(['3h10m', '3h', '<unknown>']);
  });

  it('says until when its ages read the same: the earliest next change of any row', () => {
    const encode = (at: number, validity: { until: number }) =>
      encodeTableBytes({
        printer: instanceTablePrinter,
        objects,
        version: 'v1',
        includeObject: 'None',
        now: at,
        validity,
        encodedMetadataOf: () => [Buffer.from('{}')],
        encodedObjectOf: () => Buffer.from('{}'),
      });
    const ages = (at: number) => JSON.parse(Buffer.concat(encode(at, { until: 0 })).toString()).rows.map((r: any) => r.cells[5]);
    // b is 30 s old (its age moves every second), a 10 min old (every minute), c has no timestamp
    const validity = { until: 0 };
    encode(now + 400, validity);
    expect(validity.until).toBe(now + 1000);
    expect(ages(validity.until - 1)).toEqual(ages(now + 400));
    expect(ages(validity.until)).not.toEqual(ages(now + 400));
    // three hours on, b (2h50m) steps by the minute too: the next minute of either
    encode(now + 3 * 3600_000 + 20_000, validity);
    expect(validity.until).toBe(now + 3 * 3600_000 + 30_000);
    expect(ages(validity.until - 1)).toEqual(['3h10m', '3h', '<unknown>']);
    expect(ages(validity.until)).toEqual(['3h10m', '3h1m', '<unknown>']);
  });

  it('renders every age cell of a row per call: a run\'s STARTED, its DURATION while it runs, AGE', () => {
    const run = (name: string, status: Record<string, unknown>): any => ({
      apiVersion: 'dbaas.platform.dev/v1alpha1',
      kind: 'DatabaseBackup',
      metadata: { name, namespace: 'team-a', resourceVersion: '3', creationTimestamp: '2025-01-01T00:00:00Z' },
      spec: { instanceRef: { name: 'orders-db' } },
      status: { engine: 'mariadb', ...status },
    });
    const runs = [
      run('done', { phase: 'Succeeded', startTime: '2025-01-01T00:01:00Z', completionTime: '2025-01-01T00:02:30Z', size: '1Gi' }),
      run('going', { phase: 'Running', startTime: '2025-01-01T00:05:00Z' }),
      run('waiting', { phase: 'Pending' }),
      run('odd', { phase: 'Running', startTime: 'yesterday' }),
    ];
    const encode = (at: number, validity = { until: 0 }) =>
      JSON.parse(
        Buffer.concat(
          encodeTableBytes({
            printer: backupTablePrinter,
            objects: runs,
            version: 'v1',
            includeObject: 'Metadata',
            now: at,
            validity,
            encodedMetadataOf: o => [Buffer.from(JSON.stringify(toPartialObjectMetadata(o)))],
            encodedObjectOf: o => Buffer.from(JSON.stringify(o)),
          }),
        ).toString(),
      );
    for (const at of [now, now + 90_000, now + 26 * 3600_000]) {
      const expected = buildTable({ printer: backupTablePrinter, objects: runs, version: 'v1', includeObject: 'Metadata', now: at, metadataOf: o => toPartialObjectMetadata(o) });
      expect(encode(at)).toEqual(expected);
    }
    expect(encode(now + 90_000).rows.map((r: any) => r.cells.slice(3, 7))).toEqual([
      ['10m', '90s', '1Gi', '11m'],
      ['6m30s', '6m30s', '', '11m'],
      ['', '', '', '11m'],
      ['<unknown>', '', '', '11m'],
    ]);
    // the running run's STARTED and DURATION move by the second
    const validity = { until: 0 };
    encode(now + 90_400, validity);
    expect(validity.until).toBe(now + 91_000);
  });
});
