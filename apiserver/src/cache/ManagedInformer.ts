import type { KubeObject, ResourceType } from '../adapters/types';
import { resourceName } from '../kube/resourcePath';
import type { InformerFactory, ResourceInformer } from './ResourceInformer';
import { maxResourceVersion } from './resourceVersion';

/** Restart back-off after an informer error. */
export interface InformerBackoff {
  initialMs: number;
  maxMs: number;
}

export interface ManagedInformerOptions {
  type: ResourceType;
  factory: InformerFactory;
  onAdd(obj: KubeObject): void;
  onUpdate(obj: KubeObject): void;
  onDelete(obj: KubeObject): void;
  /** After every completed list (first and re-lists), with the list's resourceVersion. */
  onListed(resourceVersion?: string): void;
  /** When a watch bookmark says every change up to `resourceVersion` has been delivered. */
  onProgress?(resourceVersion: string): void;
  /** When the informer starts failing (`failing` true) and when it has recovered. */
  onHealthChange?(failing: boolean): void;
  backoff: InformerBackoff;
  logger?: {
    info(msg: string, meta?: object): void;
    warn(msg: string, meta?: object): void;
  };
}

function describe(err: unknown): string {
  if (!err) {
    return 'unknown error';
  }
  const e = err as { message?: string; statusCode?: number; code?: unknown };
  const status =
    e.statusCode ?? (typeof e.code === 'number' ? e.code : undefined);
  return (
    [status ? `HTTP ${status}` : undefined, e.message]
      .filter(Boolean)
      .join(': ') || String(err)
  );
}

/**
 * One informer kept alive: client-node informers stop for good on any error other than 410,
 * so every error schedules a restart with exponential back-off (resuming from the last
 * resourceVersion when there is one). The current error is kept for /readyz and logged once
 * per change, not per retry.
 */
export class ManagedInformer {
  readonly informer: ResourceInformer;
  private listed = false;
  private stopped = true;
  private problemText: string | undefined;
  private delay: number;
  private restartTimer: NodeJS.Timeout | undefined;
  private healthyTimer: NodeJS.Timeout | undefined;
  private failingSince: number | undefined;
  /** Largest resourceVersion this informer has delivered everything up to. */
  private progressRv = '0';

  constructor(private readonly options: ManagedInformerOptions) {
    this.delay = options.backoff.initialMs;
    this.informer = options.factory(options.type, {
      onListed: rv => this.handleListed(rv),
      onProgress: rv => this.handleProgress(rv),
      onWatching: () => this.handleWatching(),
    });
    const seen = (obj: KubeObject) => {
      this.progressRv = maxResourceVersion(this.progressRv, obj?.metadata?.resourceVersion);
    };
    this.informer.on('add', obj => this.guard(() => {
      seen(obj);
      options.onAdd(obj);
    }));
    this.informer.on('update', obj => this.guard(() => {
      seen(obj);
      options.onUpdate(obj);
    }));
    this.informer.on('delete', obj => this.guard(() => {
      seen(obj);
      options.onDelete(obj);
    }));
    this.informer.on('error', err => this.handleError(err));
  }

  get name(): string {
    return `${resourceName(this.options.type)}/${this.options.type.version}`;
  }

  start(): void {
    this.stopped = false;
    this.run();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.restartTimer);
    clearTimeout(this.healthyTimer);
    this.informer.stop().catch(() => undefined);
  }

  /** True once a list has completed and been delivered. */
  hasListed(): boolean {
    return this.listed;
  }

  problem(): string | undefined {
    return this.problemText
      ? `informer ${this.name}: ${this.problemText}`
      : undefined;
  }

  /** When the current failure started (ms since epoch), undefined while healthy. */
  failingSinceMs(): number | undefined {
    return this.failingSince;
  }

  /**
   * The resourceVersion up to which this informer has delivered every change of its type
   * (its list, its events, the watch's bookmarks); "0" before the first list.
   */
  progress(): string {
    return this.listed ? this.progressRv : '0';
  }

  private run(): void {
    this.informer.start().catch(err => this.handleError(err));
  }

  private guard(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      // A bug in a handler must not kill the watch stream's callback chain.
      this.options.logger?.warn('Informer handler failed', {
        informer: this.name,
        error: describe(err),
      });
    }
  }

  private handleListed(resourceVersion?: string): void {
    if (this.stopped) {
      return;
    }
    this.listed = true;
    this.progressRv = maxResourceVersion(this.progressRv, resourceVersion);
    this.recovered();
    this.options.onListed(resourceVersion);
  }

  private handleWatching(): void {
    // a resumed watch replays what it missed next: call it healthy now, not after it survived
    // a while, so those changes are projected as current (see the store's Stale condition)
    if (!this.stopped && this.listed && this.problemText) {
      clearTimeout(this.healthyTimer);
      this.recovered();
    }
  }

  private handleProgress(resourceVersion: string): void {
    if (this.stopped || !this.listed) {
      return;
    }
    this.progressRv = maxResourceVersion(this.progressRv, resourceVersion);
    this.options.onProgress?.(this.progressRv);
  }

  private recovered(): void {
    if (this.problemText) {
      this.options.logger?.info('Informer recovered', { informer: this.name });
    }
    this.problemText = undefined;
    this.delay = this.options.backoff.initialMs;
    if (this.failingSince !== undefined) {
      this.failingSince = undefined;
      this.options.onHealthChange?.(false);
    }
  }

  private handleError(err: unknown): void {
    if (this.stopped) {
      return;
    }
    const text = describe(err);
    if (text !== this.problemText) {
      this.options.logger?.warn('Informer failed, restarting with back-off', {
        informer: this.name,
        error: text,
      });
    }
    this.problemText = text;
    if (this.failingSince === undefined) {
      this.failingSince = Date.now();
      this.options.onHealthChange?.(true);
    }
    clearTimeout(this.restartTimer);
    clearTimeout(this.healthyTimer);
    const delay = this.delay;
    this.delay = Math.min(this.delay * 2, this.options.backoff.maxMs);
    this.restartTimer = setTimeout(() => {
      if (this.stopped) {
        return;
      }
      this.run();
      // Without an onWatching hook a resumed watch reports nothing on success: call it
      // healthy if it survives a while.
      this.healthyTimer = setTimeout(
        () => this.recovered(),
        Math.max(1000, delay),
      );
      this.healthyTimer.unref?.();
    }, delay);
    this.restartTimer.unref?.();
  }
}
