import { Watch, type KubeConfig } from '@kubernetes/client-node';
import type { KubeObject, ResourceType } from '../adapters/types';
import { listAllPages } from './listAllPages';
import { resourcePath } from './resourcePath';
import { toStatusError } from './toStatusError';

/** A watch event's type (`ADDED` for listed items). */
export type StreamPhase = 'ADDED' | 'MODIFIED' | 'DELETED';

/** What an {@link UncachedStream} tells its reader. */
export interface StreamReader {
  /** Each listed and watched object, as it passes; nothing of it is kept. */
  observe(obj: KubeObject, phase: StreamPhase): void;
  /** A (re)list begins: what was learnt from the stream before may be out of date. */
  relisting?(): void;
  /** A list has been read to its end (its items observed). */
  listed?(): void;
  /** A list or watch failed (it is retried). */
  error?(err: unknown): void;
}

const MAX_BACKOFF_MS = 30_000;

/**
 * List then watch of every object of a type, like client-node's ListWatch, but keeping nothing:
 * for a kind whose objects are read once as they pass (events, the busiest kind of a cluster),
 * a cache of them is memory for nothing. Lists page by 500; a watch resumes from the last
 * resourceVersion seen (bookmarks included) and relists when it is too old (410 Gone); failures
 * are retried with a backoff doubling to 30 s.
 */
export class UncachedStream {
  private readonly watch: Watch;
  private rv: string | undefined;
  private stopped = false;
  private aborter: { abort(): void } | undefined;
  private backoffMs = 500;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly kc: KubeConfig,
    private readonly type: ResourceType,
    private readonly reader: StreamReader,
  ) {
    this.watch = new Watch(kc);
  }

  /** Resolves once the first list has been read. */
  async start(): Promise<void> {
    await this.relist();
    this.watchFrom();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.aborter?.abort();
  }

  private async relist(): Promise<void> {
    this.reader.relisting?.();
    this.rv =
      (await listAllPages(this.kc, resourcePath(this.type), {}, item => this.reader.observe(item, 'ADDED'), () => this.stopped)) ??
      this.rv;
    this.reader.listed?.();
  }

  private watchFrom(): void {
    if (this.stopped) return;
    let failed = false;
    const done = (err: unknown) => {
      if (failed || this.stopped) return;
      failed = true;
      this.aborter = undefined;
      if (err) this.reader.error?.(err);
      this.retry(toStatusError(err ?? {}).code === 410);
    };
    void this.watch
      .watch(
        resourcePath(this.type),
        { allowWatchBookmarks: true, resourceVersion: this.rv },
        (phase: string, obj: KubeObject) => {
          if (phase === 'ERROR') {
            const status = obj as unknown as { code?: number };
            if (status.code === 410) this.rv = undefined;
            return;
          }
          this.backoffMs = 500;
          this.rv = obj?.metadata?.resourceVersion ?? this.rv;
          if (phase === 'BOOKMARK') return;
          this.reader.observe(obj, phase as StreamPhase);
        },
        err => done(err),
      )
      .then(
        req => {
          if (this.stopped) req.abort();
          else this.aborter = req;
        },
        err => done(err),
      );
  }

  /** Watches again after a backoff, from scratch (a relist) when the resourceVersion is gone. */
  private retry(gone: boolean): void {
    const wait = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
    this.timer = setTimeout(() => {
      const again = gone || this.rv === undefined ? this.relist() : Promise.resolve();
      again.then(
        () => this.watchFrom(),
        err => {
          this.reader.error?.(err);
          this.retry(true);
        },
      );
    }, wait);
    this.timer.unref?.();
  }
}
