import type https from 'node:https';
import type {
  AggregationProxy,
  Authenticator,
  Authorizer,
  CustomHandler,
  Impersonator,
} from '../api/types';
import type { ObjectStore } from '../store/types';

/** Options of {@link createApiServer}. */
export interface ApiServerOptions {
  store: ObjectStore;
  tls: {
    key: string;
    cert: string;
    /** CA(s) client certificates are verified against at the TLS level (requested, not required). */
    ca: string;
  };
  authenticator: Authenticator;
  impersonator?: Impersonator;
  authorizer: Authorizer;
  /** Served before the generic resource handlers (e.g. TokenReview, SubjectAccessReview). */
  customHandlers?: CustomHandler[];
  aggregation?: AggregationProxy;
  /** Default 0 (any free port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Interval of watch BOOKMARK events when clients allow them (default 60 s, as kube-apiserver). */
  bookmarkIntervalMs?: number;
  /** Request body limit (default 3 MiB, as kube-apiserver). */
  maxBodyBytes?: number;
  /** gitVersion reported by /version (default v1.33.0). */
  gitVersion?: string;
}

/**
 * Fault injection for resilience tests: `unavailable` answers affected requests with 503 +
 * Retry-After, `hang` never answers them, `slow` answers them after a delay. `none` restores
 * normal service. Health probes are never affected.
 */
export type ApiServerFault = 'none' | 'unavailable' | 'hang' | 'slow';

/** Which requests a fault affects, and how it starts. */
export interface ApiServerFaultOptions {
  /**
   * `all` (default): every request, like a kube-apiserver that is gone. `storage`: only requests
   * served from the object store, like a kube-apiserver whose etcd is gone: authentication,
   * TokenReview, SubjectAccessReview, discovery and the aggregation proxy keep working from
   * memory, as they do in kube-apiserver.
   */
  scope?: 'all' | 'storage';
  /** Delay of `slow` (default 1000 ms). */
  delayMs?: number;
  /**
   * Cut the affected open streams when `unavailable` or `hang` starts (default true), as a
   * crash or a partition does: `all` destroys every connection, `storage` every open watch of
   * the store. Without it, open watches stay open and only new requests see the fault.
   */
  cutConnections?: boolean;
}

/** A running emulated kube-apiserver. */
export interface ApiServerHandle {
  url: string;
  port: number;
  server: https.Server;
  setFault(mode: ApiServerFault, options?: ApiServerFaultOptions): void;
  /**
   * Ends every open watch of the store without a final bookmark, so each client resumes from
   * its last resourceVersion (the store decides whether that is still in its history).
   */
  endWatches(): void;
  /**
   * The requests a `slow` fault holds back right now (method and URL), so that a test can act
   * once its requests are in flight instead of guessing how long they take to get there.
   */
  delayedRequests(): Array<{ method: string; url: string }>;
  /** Ends watches cleanly, closes connections and the listener. */
  close(): Promise<void>;
}
