import { describe, expect, it } from '@jest/globals';
import { watchEventReader } from './watchEventReader';

describe('watchEventReader', () => {
  it('passes changes on, moves the cursor with changes and bookmarks, skips broken lines, and marks a 410 expired', () => {
    const cursor: { rv?: string } = { rv: '1' };
    const seen: string[] = [];
    const reader = watchEventReader<{ metadata: { name: string } }>(cursor, c => seen.push(`${c.type} ${c.object.metadata.name}`));
    reader.onLine('{"type":"ADDED","object":{"metadata":{"name":"a","resourceVersion":"2"}}}');
    reader.onLine('{not json');
    reader.onLine('{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"5"}}}');
    expect(cursor.rv).toBe('5');
    reader.onLine('{"type":"DELETED","object":{"metadata":{"name":"a","resourceVersion":"6"}}}');
    expect(reader.expired()).toBe(false);
    reader.onLine('{"type":"ERROR","object":{"kind":"Status","code":410,"metadata":{"resourceVersion":"9"}}}');
    expect(reader.expired()).toBe(true);
    expect(cursor.rv).toBe('6');
    expect(seen).toEqual(['ADDED a', 'DELETED a']);
  });
});
