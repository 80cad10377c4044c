import { setTimeout as delay } from 'node:timers/promises';
import type { Impersonation, KubeClusterClient } from './KubeClusterClient';
import { KubeRequestError } from './KubeRequestError';
import { watchEventReader } from './watchEventReader';

/** Which objects a {@link SelectedListWatch} reads, and how they reach its caller. */
export interface SelectedObjects<T, C> {
  /** The collection's path (one namespace). */
  path: string;
  fieldSelector: string;
  /** At most this many are listed. */
  limit?: number;
  /** One object as the caller wants it. */
  toItem(object: any): T;
  /** The order the list is sent in. */
  order(a: T, b: T): number;
  /** One watch event as the caller wants it. */
  toChange(type: 'ADDED' | 'MODIFIED' | 'DELETED', item: T): C;
}

/** Where a {@link SelectedListWatch} reports. */
export interface ListWatchSink<T, C> {
  /** The whole list, in order: first, and again whenever the watch had to list again. */
  list(items: T[]): void;
  change(change: C): void;
}

/**
 * Objects selected by a field selector, as one user may read them: a list as that user, then a
 * watch as that user from the list's resourceVersion (Kubernetes RBAC decides, as for `kubectl get
 * -w`); nothing is kept here. A watch the server ends (its timeout) resumes where it was; one whose
 * resourceVersion expired (410) lists again. An instance's events and its backups are read so.
 */
export class SelectedListWatch<T, C> {
  constructor(
    private readonly client: KubeClusterClient,
    private readonly as: Impersonation,
    private readonly selected: SelectedObjects<T, C>,
    private readonly watchTimeoutSeconds = 300,
  ) {}

  /** The objects now, in order, and the resourceVersion to watch from. */
  async list(signal?: AbortSignal): Promise<{ items: T[]; resourceVersion?: string }> {
    const { path, fieldSelector, limit } = this.selected;
    const list = await this.client.request<{ items?: any[]; metadata?: { resourceVersion?: string } }>({
      path,
      query: { fieldSelector, ...(limit !== undefined && { limit: String(limit) }) },
      as: this.as,
      signal,
    });
    return {
      items: (list.items ?? []).map(o => this.selected.toItem(o)).sort((a, b) => this.selected.order(a, b)),
      resourceVersion: list.metadata?.resourceVersion,
    };
  }

  /**
   * Reports to `sink` until `signal` aborts or the cluster refuses (then it throws: the caller
   * ends its stream and the browser comes back). `from` is the first list's resourceVersion, its
   * items already sent.
   */
  async follow(sink: ListWatchSink<T, C>, from: string | undefined, signal: AbortSignal): Promise<void> {
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
  private async watchOnce(sink: ListWatchSink<T, C>, cursor: { rv?: string }, signal: AbortSignal): Promise<boolean> {
    const reader = watchEventReader(cursor, ({ type, object }) => sink.change(this.selected.toChange(type, this.selected.toItem(object))));
    try {
      await this.client.stream(
        {
          path: this.selected.path,
          query: {
            watch: 'true',
            fieldSelector: this.selected.fieldSelector,
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
