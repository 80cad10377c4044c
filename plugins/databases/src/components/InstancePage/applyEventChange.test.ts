import { describe, expect, it } from '@jest/globals';
import { applyEventChange } from './applyEventChange';

const ev = (name: string, lastTimestamp: string, count = 1) => ({ name, type: 'Warning', reason: 'BackOff', count, lastTimestamp });

describe('applyEventChange', () => {
  const list = [ev('a', '2026-12-01T10:00:00Z'), ev('b', '2026-12-01T10:05:00Z')];

  it('adds a new event in time order, newest last', () => {
    const next = applyEventChange(list, { type: 'ADDED', item: ev('c', '2026-12-01T10:02:00Z') });
    expect(next.map(e => e.name)).toEqual(['a', 'c', 'b']);
  });

  it('replaces a repeated event by name (its count and time), moving it to its new place', () => {
    const next = applyEventChange(list, { type: 'MODIFIED', item: ev('a', '2026-12-01T10:09:00Z', 7) });
    expect(next.map(e => [e.name, e.count])).toEqual([
      ['b', 1],
      ['a', 7],
    ]);
  });

  it('removes a deleted event and leaves the others', () => {
    expect(applyEventChange(list, { type: 'DELETED', item: ev('a', '') }).map(e => e.name)).toEqual(['b']);
  });

  it('does not change the list it was given', () => {
    applyEventChange(list, { type: 'DELETED', item: ev('a', '') });
    expect(list.map(e => e.name)).toEqual(['a', 'b']);
  });
});
