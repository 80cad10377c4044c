import type { ServerResponse } from 'node:http';
import type { RequestInfo, UserInfo } from '../auth/types';
import { StatusError } from './StatusError';
import { responseClosed } from './responseClosed';

/**
 * Limits of {@link MaxInFlight}, each 0 for no limit: kube-apiserver's `--max-requests-inflight`
 * and `--max-mutating-requests-inflight`.
 */
export interface MaxInFlightLimits {
  /** get and list (watches are never counted). */
  readOnly: number;
  /** every other verb: create, update, patch, delete, deletecollection. */
  mutating: number;
}

/** kube-apiserver's defaults (`NewConfig` in `k8s.io/apiserver/pkg/server/config.go`). */
export const DEFAULT_MAX_IN_FLIGHT: MaxInFlightLimits = { readOnly: 400, mutating: 200 };

/** The pool a request counts against. */
export type InFlightKind = keyof MaxInFlightLimits;

const READ_ONLY_VERBS = new Set(['get', 'list', 'watch']);
// kube-apiserver's LongRunningFunc: BasicLongRunningRequestCheck({watch, proxy}, {attach, exec,
// proxy, log, portforward}). `connection` is an ordinary get and counts.
const LONG_RUNNING_VERBS = new Set(['watch', 'proxy']);
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

/** Whether kube-apiserver would treat the request as long-running (never limited, never timed out). */
export function isLongRunning(info: RequestInfo): boolean {
  return LONG_RUNNING_VERBS.has(info.verb) || LONG_RUNNING_SUBRESOURCES.has(info.subresource);
}

/**
 * The pool a request counts against, or undefined when it is not counted: long-running requests,
 * as in kube-apiserver, and every non-resource request (health, discovery, OpenAPI, `/version`,
 * `/metrics`). kube counts the latter as reads, but here they are answered from documents built
 * at start and touch neither the cache nor kube-apiserver; leaving them out keeps kubelet probes
 * and kubectl's discovery answering while resource requests are being turned away, so an
 * overloaded pod is neither restarted nor taken out of the Service for being busy.
 */
export function inFlightKind(info: RequestInfo): InFlightKind | undefined {
  if (!info.isResourceRequest || isLongRunning(info)) return undefined;
  return READ_ONLY_VERBS.has(info.verb) ? 'readOnly' : 'mutating';
}

/** `429 TooManyRequests` with `Retry-After: 1`, as kube-apiserver's max-in-flight filter answers. */
export const tooManyRequests = () =>
  new StatusError(
    429,
    'TooManyRequests',
    'the server has received too many requests and has asked us to try again later',
    { retryAfterSeconds: 1 },
    { 'Retry-After': '1' },
  );

const noop = () => undefined;

/**
 * Counts requests in flight per pool (k8s.io/apiserver `WithMaxInFlightLimit`): a request over
 * its pool's limit is refused at once, never queued, so an overload costs clients a retry
 * instead of the server its memory.
 */
export class MaxInFlight {
  private readonly counts: Record<InFlightKind, number> = { readOnly: 0, mutating: 0 };

  constructor(private readonly limits: MaxInFlightLimits = DEFAULT_MAX_IN_FLIGHT) {}

  /** Requests of the pool now holding a slot. */
  inFlight(kind: InFlightKind): number {
    return this.counts[kind];
  }

  /** Takes a slot of `kind`: its release (safe to call twice), or undefined when the pool is full. */
  tryAcquire(kind: InFlightKind): (() => void) | undefined {
    const limit = this.limits[kind];
    // counted without a limit too: the count is also the in-flight gauge
    if (limit > 0 && this.counts[kind] >= limit) return undefined;
    this.counts[kind]++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.counts[kind]--;
    };
  }

  /**
   * Admits one request: the release to call once it is done, or a thrown 429. As in kube, a
   * `system:masters` caller is served even over the limit (the aggregator's availability probe
   * is one, and a super-user must always get an answer).
   */
  admit(info: RequestInfo, user: UserInfo): () => void {
    const kind = inFlightKind(info);
    if (!kind) return noop;
    const release = this.tryAcquire(kind);
    if (release) return release;
    if (user.groups.includes('system:masters')) return noop;
    throw tooManyRequests();
  }
}

/**
 * Holds `release` until both the handler has settled and the response is closed (sent or cut).
 * The slot outlives a client that hangs up while the handler still works (the work goes on,
 * so it still counts), and a handler that returns while its body is still being written.
 * Returns what the caller calls when its handler has settled.
 */
export function releaseWhenDone(res: ServerResponse, release: () => void): () => void {
  let pending = 2;
  const done = () => {
    if (--pending === 0) release();
  };
  if (responseClosed(res)) done();
  else res.once('close', done);
  let settled = false;
  return () => {
    if (settled) return;
    settled = true;
    done();
  };
}
