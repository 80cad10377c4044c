import { describe, expect, it } from '@jest/globals';
import type { DatabaseInstance } from '@internal/plugin-databases-common';
import { coalesceByRv } from './coalesceByRv';
import type { InstanceEvent } from './types';

const inst = (name: string, uid: string, phase: string): DatabaseInstance =>
  ({ apiVersion: 'dbaas.platform.dev/v1alpha1', kind: 'DatabaseInstance', metadata: { name, namespace: 'team-a', uid }, spec: { engine: 'redis' }, status: { phase } }) as any;
const ev = (type: InstanceEvent['type'], rv: string, o: DatabaseInstance, old?: DatabaseInstance): InstanceEvent => ({ type, resourceVersion: rv, object: o, ...(old ? { oldObject: old } : {}) });
const brief = (events: InstanceEvent[]) => events.map(e => `${e.type} ${e.resourceVersion} ${e.object.metadata.name} ${e.object.status?.phase}${e.oldObject ? ` (was ${e.oldObject.status?.phase})` : ''}`);

describe('coalesceByRv', () => {
  it('keeps the last state of an instance at an RV, in the first one\'s place, with its type and old object', () => {
    const events = [
      ev('ADDED', '10', inst('a', 'u1', 'Pending')),
      ev('MODIFIED', '10', inst('b', 'u2', 'Updating'), inst('b', 'u2', 'Ready')),
      ev('MODIFIED', '10', inst('a', 'u1', 'Ready'), inst('a', 'u1', 'Pending')),
      ev('MODIFIED', '10', inst('b', 'u2', 'Ready'), inst('b', 'u2', 'Updating')),
      ev('MODIFIED', '11', inst('b', 'u2', 'Degraded'), inst('b', 'u2', 'Ready')),
    ];
    expect(brief(coalesceByRv(events))).toEqual(['ADDED 10 a Ready', 'MODIFIED 10 b Ready (was Ready)', 'MODIFIED 11 b Degraded (was Ready)']);
  });

  it('drops an instance added and deleted at one RV, and keeps a DELETED and the ADDED of a new uid apart', () => {
    const events = [
      ev('ADDED', '20', inst('a', 'u1', 'Pending')),
      ev('DELETED', '20', inst('a', 'u1', 'Pending')),
      ev('DELETED', '20', inst('c', 'u3', 'Ready')),
      ev('ADDED', '20', inst('c', 'u4', 'Pending')),
    ];
    expect(brief(coalesceByRv(events))).toEqual(['DELETED 20 c Ready', 'ADDED 20 c Pending']);
  });
});
