import { setTimeout as delay } from 'node:timers/promises';
import { DATABASE_INSTANCE_KIND, type InstanceKubeEvent, type InstanceKubeEventChange } from '@internal/plugin-databases-common';
import type { Impersonation, KubeClusterClient } from '../kube/KubeClusterClient';
import { KubeRequestError } from '../kube/KubeRequestError';
import { watchEventReader } from '../kube/watchEventReader';
import { byLastTimestamp, toInstanceKubeEvent } from './toInstanceKubeEvent';

/** One instance, as its events name it. */
export interface EventsOf {
  namespace: string;
  name: string;
  /** Without it, a deleted instance's events would show under its successor of the same name. */
  uid?: string;
}

/** Where a watch of one instance's events reports. */
export interface InstanceEventsSink {
  /** The whole list, newest last: first, and again whenever the watch had to list again. */
  list(items: InstanceKubeEvent[]): void;
  change(change: InstanceKubeEventChange): void;
}

/** At most this many events are listed (the apiserver keeps 10 mirrors per instance). */
const LIST_LIMIT = '100';

const eventsPath = (namespace: string) => `/api/v1/namespaces/${encodeURIComponent(namespace)}/events`;

/** `kubectl describe`'s selector: the events whose involved object is this instance. */
function selectorOf(of: EventsOf): string {
  return [
    `involvedObject.kind=${DATABASE_INSTANCE_KIND}`,
    `involvedObject.name=${of.name}`,
    ...(of.uid ? [`involvedObject.uid=${of.uid}`] : []),
  ].join(',');
}

/**
 * The events of one instance as one user may read them: a list as that user, then a watch as
 * that user from the list's resourceVersion (Kubernetes RBAC decides, as for `kubectl get events
 * -w`); nothing is kept here. A watch the server ends (its timeout) resumes where it was; one
 * whose resourceVersion expired (410) lists again.
 */
export class InstanceEventsWatch {
  constructor(
    private readonly client: KubeClusterClient,
    private readonly as: Impersonation,
    private readonly of: EventsOf,
    private readonly watchTimeoutSeconds = 300,
  ) {}

  /** The events now, newest last, and the resourceVersion to watch from. */
  async list(signal?: AbortSignal): Promise<{ items: InstanceKubeEvent[]; resourceVersion?: string }> {
    const list = await this.client.request<{ items?: any[]; metadata?: { resourceVersion?: string } }>({
      path: eventsPath(this.of.namespace),
      query: { fieldSelector: selectorOf(this.of), limit: LIST_LIMIT },
      as: this.as,
      signal,
    });
    return {
      items: (list.items ?? []).map(toInstanceKubeEvent).sort(byLastTimestamp),
      resourceVersion: list.metadata?.resourceVersion,
    };
  }

  /**
   * Reports to `sink` until `signal` aborts or the cluster refuses (then it throws: the caller
   * ends its stream and the browser comes back). `from` is the first list's resourceVersion, its
   * items already sent.
   */
  async follow(sink: InstanceEventsSink, from: string | undefined, signal: AbortSignal): Promise<void> {
    const cursor = { rv: from };
    while (!signal.aborted) {
      if (!cursor.rv) {
        const listed = await this.list(signal);
        sink.list(listed.items);
        cursor.rv = listed.resourceVersion;
      }
      const opened = Date.now();
      const expired = await this.watchOnce(sink, cursor, signal);
      if (expired) cursor.rv = undefined;
      // a watch that something between ends at once would otherwise spin
      if (Date.now() - opened < 1000) await delay(1000, undefined, { signal }).catch(() => undefined);
    }
  }

  /** One watch request; true when its resourceVersion is too old (a list must come first). */
  private async watchOnce(sink: InstanceEventsSink, cursor: { rv?: string }, signal: AbortSignal): Promise<boolean> {
    const reader = watchEventReader(cursor, ({ type, object }) => sink.change({ type, item: toInstanceKubeEvent(object) }));
    try {
      await this.client.stream(
        {
          path: eventsPath(this.of.namespace),
          query: {
            watch: 'true',
            fieldSelector: selectorOf(this.of),
            resourceVersion: cursor.rv,
            allowWatchBookmarks: 'true',
            timeoutSeconds: String(this.watchTimeoutSeconds),
          },
          as: this.as,
        },
        { onLine: reader.onLine },
        signal,
      );
    } catch (e) {
      if (signal.aborted) return false;
      if (e instanceof KubeRequestError && e.statusCode === 410) return true;
      throw e;
    }
    return reader.expired();
  }
}
