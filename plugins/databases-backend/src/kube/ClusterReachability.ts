import type { DatabasesFetchError } from '@internal/plugin-databases-common';
import { KubeRequestError } from './KubeRequestError';

/** An RFC 3339 time to the second, as Kubernetes prints them. */
export const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Whether one cluster answers at all, from the outcomes of the requests sent to it: any HTTP
 * answer (even a 401 or a 500) says it answers; a request that ended without one (timeout,
 * connection refused, TLS failure) says it does not, until something is answered again.
 *
 * Requests for people are not sent to a cluster known not to answer (each would wait for the
 * whole request timeout, and an answer over several clusters would wait for the slowest); the
 * cluster's watch is the one that keeps asking, and its first answer clears the state.
 */
export class ClusterReachability {
  private lastAnswerAt?: number;
  private silence?: { since: number; error: KubeRequestError };
  private overdue?: { since: number; waitedMs: number };
  private readonly silentListeners = new Set<() => void>();

  constructor(readonly cluster: string) {}

  /** Whether the cluster has given any HTTP answer since this process started. */
  get everAnswered(): boolean {
    return this.lastAnswerAt !== undefined;
  }

  /** An HTTP answer came (headers received). */
  answered(now = Date.now()): void {
    this.lastAnswerAt = now;
    this.silence = undefined;
    this.overdue = undefined;
  }

  /** A request sent at `sentAt` ended without an HTTP answer. */
  unanswered(sentAt: number, error: KubeRequestError): void {
    if (this.lastAnswerAt !== undefined && this.lastAnswerAt > sentAt) {
      // answered after this request went out: one lost connection, not a silent cluster
      return;
    }
    const first = !this.silence;
    this.silence = { since: Math.min(sentAt, this.silence?.since ?? sentAt), error };
    if (first) this.silentListeners.forEach(l => l());
  }

  /**
   * An answer over several clusters stopped waiting for this one after `waitedMs` (its part was
   * asked at `since`). Until the cluster answers something, the next such answers do not wait.
   */
  gaveUp(since: number, waitedMs: number): void {
    if (this.lastAnswerAt !== undefined && this.lastAnswerAt > since) return;
    this.overdue ??= { since, waitedMs };
  }

  /** Ended requests say it does not answer: the error to give instead of sending another. */
  silent(): KubeRequestError | undefined {
    if (!this.silence) return undefined;
    const { since, error } = this.silence;
    return new KubeRequestError(
      this.cluster,
      error.errorType,
      `cluster ${this.cluster} has not answered since ${rfc3339(since)}: ${error.message}`,
    );
  }

  /** Silent, or an answer recently stopped waiting for it: the `errors[]` entry to give at once. */
  knownNotAnswering(): DatabasesFetchError | undefined {
    const silent = this.silent();
    if (silent) return silent.toFetchError();
    if (!this.overdue) return undefined;
    return notAnsweredSince(this.cluster, this.overdue.since, `no answer within ${this.overdue.waitedMs} ms`).toFetchError();
  }

  /** Calls `listener` each time the cluster becomes silent (the watch then reconnects). */
  onSilent(listener: () => void): () => void {
    this.silentListeners.add(listener);
    return () => this.silentListeners.delete(listener);
  }
}

/** The error of a cluster that has not answered since `since` (as an `errors[]` entry: a `TIMEOUT`). */
export function notAnsweredSince(cluster: string, since: number, why: string): KubeRequestError {
  return new KubeRequestError(cluster, 'TIMEOUT', `cluster ${cluster} has not answered since ${rfc3339(since)}: ${why}`);
}
