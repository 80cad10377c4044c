import { describe, expect, it } from '@jest/globals';
import { checkEventStream, type SeenObject, type StreamRecord } from './checkEventStream';

const o = (key: string, rv: string, uid = `uid-${key}`, content = `${key}:${uid}`): SeenObject => ({ key, uid, resourceVersion: rv, content });
const ev = (type: 'ADDED' | 'MODIFIED' | 'DELETED', object: SeenObject): StreamRecord => ({ kind: 'event', type, object });

describe('checkEventStream', () => {
  it('accepts a consistent stream and builds the final state', () => {
    const r = checkEventStream([
      { kind: 'list', resourceVersion: '10', items: [o('a/x', '5')] },
      { kind: 'watch', from: '10' },
      ev('MODIFIED', o('a/x', '11', 'uid-a/x', 'changed')),
      ev('ADDED', o('a/y', '12')),
      ev('DELETED', o('a/x', '13')),
      ev('ADDED', o('a/x', '14', 'uid-2')),
    ]);
    expect(r.violations).toEqual([]);
    expect([...r.state.keys()].sort()).toEqual(['a/x', 'a/y']);
    expect(r.state.get('a/x')!.uid).toBe('uid-2');
  });

  it('reports duplicates, events for absent keys, uid swaps and RVs going back', () => {
    const r = checkEventStream([
      { kind: 'list', resourceVersion: '10', items: [o('a/x', '5')] },
      { kind: 'watch', from: '10' },
      ev('ADDED', o('a/x', '11')),
      ev('MODIFIED', o('a/x', '12')),
      ev('MODIFIED', o('a/gone', '13')),
      ev('DELETED', o('a/none', '14')),
      ev('MODIFIED', o('a/x', '15', 'other-uid')),
      ev('ADDED', o('a/z', '9')),
    ]);
    expect(r.violations).toEqual([
      expect.stringMatching(/ADDED for a key already present/),
      expect.stringMatching(/nothing changed/),
      expect.stringMatching(/MODIFIED for an absent key/),
      expect.stringMatching(/DELETED for an absent key/),
      expect.stringMatching(/changed the uid/),
      expect.stringMatching(/went back from 15/),
    ]);
  });

  it('reports a change at the resourceVersion the client holds (client-node would keep the old object)', () => {
    const r = checkEventStream([
      { kind: 'list', resourceVersion: '10', items: [o('a/x', '10')] },
      { kind: 'watch', from: '10' },
      ev('MODIFIED', o('a/x', '10', 'uid-a/x', 'changed')),
      ev('MODIFIED', o('a/x', '11', 'uid-a/x', 'changed again')),
    ]);
    expect(r.violations).toEqual([expect.stringMatching(/^#2 MODIFIED a\/x@10: MODIFIED changed the object at the resourceVersion the client holds$/)]);
  });

  it('lets a re-list replace the state', () => {
    const r = checkEventStream([
      { kind: 'list', resourceVersion: '10', items: [o('a/x', '5')] },
      { kind: 'error', code: 410 },
      { kind: 'list', resourceVersion: '20', items: [o('a/y', '15')] },
      { kind: 'watch', from: '20' },
      ev('ADDED', o('a/x', '21')),
    ]);
    expect(r.violations).toEqual([]);
    expect(r.lists).toBe(2);
  });
});
