import { describe, expect, it } from '@jest/globals';
import { EventHistory } from './EventHistory';
import { ResourceVersionExpiredError, type InstanceEvent } from './types';

const event = (rv: number): InstanceEvent => ({
  type: 'MODIFIED',
  object: { apiVersion: 'dbaas.platform.dev/v1alpha1', kind: 'DatabaseInstance', metadata: { name: 'x', namespace: 'n', resourceVersion: String(rv) }, spec: { engine: 'redis' } },
  resourceVersion: String(rv),
});

describe('EventHistory', () => {
  it('keeps the newest events within its bounds and expires resumes from before them', () => {
    const h = new EventHistory({ maxEvents: 100, maxAgeMs: 60_000 });
    h.reset('0');
    for (let rv = 1; rv <= 250; rv++) h.append(event(rv));
    expect(h.size).toBe(100);
    expect(h.startRv()).toBe('150');
    expect(h.since('200').map(e => e.resourceVersion)).toEqual(Array.from({ length: 50 }, (_, i) => String(201 + i)));
    expect(() => h.since('149')).toThrow(ResourceVersionExpiredError);
  });

  it('does not hold on to dropped events: memory stays within the window plus one compaction step', () => {
    const h = new EventHistory({ maxEvents: 3000, maxAgeMs: 60_000 });
    h.reset('0');
    let held = 0;
    for (let rv = 1; rv <= 12_000; rv++) {
      h.append(event(rv));
      held = Math.max(held, (h as unknown as { events: unknown[] }).events.length);
    }
    expect(h.size).toBe(3000);
    expect(held).toBeLessThanOrEqual(3000 + 1024);
  });
});
