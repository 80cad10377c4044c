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

/** What kube-apiserver sends of each object when asked for its metadata only. */
const METADATA_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
const METADATA = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';

/** The KubeConfig, its requests asking for `accept` (client-node's Watch takes no headers). */
function accepting(kc: KubeConfig, accept: string): KubeConfig {
  const wrapped = Object.create(kc) as KubeConfig;
  wrapped.applyToFetchOptions = async opts => {
    const init = await kc.applyToFetchOptions(opts);
    // a Headers object (a bearer token is set on one) keeps its entries only through its own set()
    const headers = init.headers as { set?: (k: string, v: string) => void } | Record<string, string> | undefined;
    if (headers && typeof headers.set === 'function') {
      headers.set('Accept', accept);
      return init;
    }
    return { ...init, headers: { ...(headers as Record<string, string> | undefined), Accept: accept } };
  };
  return wrapped;
}

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

  /**
   * `metadataOnly`: objects arrive as PartialObjectMetadata (name, labels, annotations,
   * resourceVersion…, never the body): for Secrets, whose values must not pass through here.
   */
  constructor(
    private readonly kc: KubeConfig,
    private readonly type: ResourceType,
    private readonly reader: StreamReader,
    private readonly options: { metadataOnly?: boolean } = {},
  ) {
    this.watch = new Watch(options.metadataOnly ? accepting(kc, METADATA) : kc);
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
      (await listAllPages(
        this.kc,
        resourcePath(this.type),
        {},
        item => this.reader.observe(item, 'ADDED'),
        () => this.stopped,
        this.options.metadataOnly ? METADATA_LIST : undefined,
      )) ??
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
