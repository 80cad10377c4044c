import { setTimeout as delay } from 'node:timers/promises';
import type { BackupChange, DatabaseBackup, DatabaseBackupList } from '@internal/plugin-databases-common';
import type { Impersonation, KubeClusterClient } from '../kube/KubeClusterClient';
import { KubeRequestError } from '../kube/KubeRequestError';
import { backupPath } from '../kube/paths';
import { watchEventReader } from '../kube/watchEventReader';

/** The instance whose backups are read. */
export interface BackupsOf {
  namespace: string;
  /** The instance's name: its backups' `spec.instanceRef.name`. */
  instance: string;
}

/** Where a watch of one instance's backups reports. */
export interface BackupsSink {
  /** The whole list, newest first: first, and again whenever the watch had to list again. */
  list(items: DatabaseBackup[]): void;
  change(change: BackupChange): void;
}

/** Newest first (a run's creation is when it was asked for); the name breaks ties, newest name first. */
export function newestFirst(a: DatabaseBackup, b: DatabaseBackup): number {
  const byTime = (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? '');
  return byTime || (b.metadata.name ?? '').localeCompare(a.metadata.name ?? '');
}

/**
 * One instance's backups as one user may read them: a list as that user selected by
 * `spec.instanceRef.name` on the apiserver, then a watch as that user from the list's
 * resourceVersion (Kubernetes RBAC decides, as for `kubectl get dbb -w`); nothing is kept here.
 * A watch the server ends (its timeout) resumes where it was; one whose resourceVersion expired
 * (410) lists again. The same shape as InstanceEventsWatch.
 */
export class BackupsWatch {
  constructor(
    private readonly client: KubeClusterClient,
    private readonly as: Impersonation,
    private readonly of: BackupsOf,
    private readonly watchTimeoutSeconds = 300,
  ) {}

  private get fieldSelector() {
    return `spec.instanceRef.name=${this.of.instance}`;
  }

  /** The backups now, newest first, and the resourceVersion to watch from. */
  async list(signal?: AbortSignal): Promise<{ items: DatabaseBackup[]; resourceVersion?: string }> {
    const list = await this.client.request<DatabaseBackupList>({
      path: backupPath(this.of.namespace),
      query: { fieldSelector: this.fieldSelector },
      as: this.as,
      signal,
    });
    return { items: [...(list.items ?? [])].sort(newestFirst), resourceVersion: list.metadata?.resourceVersion };
  }

  /**
   * Reports to `sink` until `signal` aborts or the cluster refuses (then it throws: the caller
   * ends its stream and the browser comes back). `from` is the first list's resourceVersion, its
   * items already sent.
   */
  async follow(sink: BackupsSink, from: string | undefined, signal: AbortSignal): Promise<void> {
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
  private async watchOnce(sink: BackupsSink, cursor: { rv?: string }, signal: AbortSignal): Promise<boolean> {
    const reader = watchEventReader<DatabaseBackup>(cursor, ({ type, object }) => sink.change({ type, backup: object }));
    try {
      await this.client.stream(
        {
          path: backupPath(this.of.namespace),
          query: {
            watch: 'true',
            fieldSelector: this.fieldSelector,
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
