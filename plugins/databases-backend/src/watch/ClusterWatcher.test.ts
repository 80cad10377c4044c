import { describe, expect, it } from '@jest/globals';
import { mockServices } from '@backstage/backend-test-utils';
import { ClusterWatcher } from './ClusterWatcher';
import { KubeRequestError } from '../kube/KubeRequestError';
import type { ClusterHealthChange } from './types';

/** A cluster that lists but refuses every watch, as one whose RBAC for the backend lacks `watch`. */
function listsButRefusesWatch(lists: number, done: () => void) {
  let listed = 0;
  return {
    cluster: { name: 'dev' },
    reachability: { onSilent: () => () => {} },
    async request() {
      if (++listed === lists) done();
      return { metadata: { resourceVersion: String(listed) }, items: [] };
    },
    async stream() {
      throw new KubeRequestError('dev', 'FORBIDDEN', 'databaseinstances is forbidden: cannot watch', 403);
    },
  } as any;
}

describe('ClusterWatcher', () => {
  it('is healthy only once its watch is open: a refused watch after good lists stays one unhealthy change', async () => {
    const changes: ClusterHealthChange[] = [];
    let reached!: () => void;
    const fourLists = new Promise<void>(resolve => {
      reached = resolve;
    });
    const watcher = new ClusterWatcher(listsButRefusesWatch(4, () => reached()), { onClusterHealth: c => changes.push(c) }, mockServices.logger.mock(), {
      backoffMs: 1,
      maxBackoffMs: 4,
    });
    watcher.start();
    await fourLists;
    await watcher.stop();
    expect(changes.map(c => c.healthy)).toEqual([false]);
    expect(changes[0].message).toContain('cannot watch');
    expect(watcher.ready()).toBe(false);
  });
});
