import { quiesce, settleAfterWrite, startSystem, wroteSince, type StartSystemOptions, type System } from '../support';
import { HostileApiClient, type ProbeAnswer, type ProbeRequest } from './hostileApiClient';

/** Who a probe claims to be, as the aggregator asserts it with the front-proxy certificate. */
export type Caller = 'admin' | 'alice' | 'carol' | 'anonymous';

/** X-Remote-* headers per caller (admin is system:masters: no SubjectAccessReview). */
export const CALLER_HEADERS: Record<Caller, Record<string, string | string[]>> = {
  admin: { 'X-Remote-User': 'admin', 'X-Remote-Group': ['system:masters', 'system:authenticated'] },
  alice: { 'X-Remote-User': 'alice', 'X-Remote-Group': ['team-a', 'system:authenticated'] },
  carol: { 'X-Remote-User': 'carol', 'X-Remote-Group': ['platform-viewers', 'system:authenticated'] },
  anonymous: {},
};

/** Cases per route family: at least 10,000 (the bar); raise it for a longer hunt. */
export const HOSTILE_RUNS = Math.max(10_000, Number(process.env.DBAAS_HOSTILE_RUNS ?? 0));

/**
 * Test timeout for HOSTILE_RUNS cases: a case takes 2–7 ms on a quiet machine, but 20 ms per case
 * was exceeded (200 s for 10,000) when other suites and jobs saturated both cores; 60 ms bounds
 * a starved run without hiding a hang (a hung request fails its own per-request timeout first).
 */
export const HOSTILE_TIMEOUT_MS = Math.max(120_000, HOSTILE_RUNS * 60);

/**
 * Header values as they reach the wire: Node refuses characters outside Latin-1 and control
 * characters in a header, so a hostile value is sent as its UTF-8 bytes with controls replaced
 * (CR/LF injection is probed separately, on a raw socket).
 */
export function wireHeaderValue(value: string): string {
  return Buffer.from(value, 'utf8')
    .toString('latin1')
    .replace(/[^\t\x20-\x7e\x80-\xff]/g, ' ');
}

/** The whole system, a client holding the aggregator's front-proxy certificate, and the store to watch. */
export interface HostileHarness {
  system: System;
  client: HostileApiClient;
  /** Sends `probe` as `caller`; hostile header values are made sendable (see {@link wireHeaderValue}). */
  send(caller: Caller, probe: ProbeRequest): Promise<ProbeAnswer>;
  /** The emulator's store resourceVersion: any write to any object moves it. */
  storeRv(): number;
  /**
   * Whether anything but the aggregator wrote since `rv`: kube-aggregator rewrites an
   * APIService's Available condition on its own schedule (a slow discovery probe on a loaded
   * machine), which no request of a case causes.
   */
  wroteSince(rv: number): string | undefined;
  /** The apiserver's current list resourceVersion (for generators of resourceVersions). */
  servedRv(): bigint;
  /** Namespace and name of every instance the apiserver serves now. */
  instances(): Array<readonly [string, string]>;
  stop(): Promise<void>;
}

const SETTLE_BOOKMARK_MS = 500;

/** The JSON object a body holds, or undefined (a Status, a list or not JSON name no instance to wait for). */
function parsedOrUndefined(text: string): { metadata?: { namespace?: string; name?: string } } | undefined {
  try {
    const body = JSON.parse(text);
    return body?.kind === 'DatabaseInstance' ? body : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts the system with the demo seed, lets the emulated operators settle and then pauses
 * them, so that from here on only requests can change the store.
 */
export async function startHostileHarness(options: StartSystemOptions = {}): Promise<HostileHarness> {
  // bookmarks carry the cluster's resourceVersion to idle watches: see cacheReached
  const system = await startSystem({ seed: true, bookmarkIntervalMs: SETTLE_BOOKMARK_MS, ...options });
  await quiesce(system, SETTLE_BOOKMARK_MS);
  const client = new HostileApiClient({
    port: system.apiserver.port,
    ca: system.emulator.certs.clusterCa.certPem,
    servername: 'api.dbaas-system.svc',
    cert: system.emulator.certs.frontProxyClient,
  });
  return {
    system,
    client,
    send: async (caller, probe) => {
      const headers: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(probe.headers ?? {})) {
        headers[k] = Array.isArray(v) ? v.map(wireHeaderValue) : wireHeaderValue(v);
      }
      const answer = await client.request({ ...probe, headers: { ...headers, ...CALLER_HEADERS[caller] } });
      // an accepted write makes the apiserver write of its own accord (a Ready spec recorded, a new
      // instance's binding Secret): done before the next case compares the store
      const writing = probe.method !== 'GET' && answer.status >= 200 && answer.status < 300;
      await settleAfterWrite(system, writing ? parsedOrUndefined(answer.body) : undefined);
      return answer;
    },
    storeRv: () => system.emulator.store.currentRV(),
    wroteSince: rv => wroteSince(system, rv),
    servedRv: () => BigInt(system.apiserver.store.resourceVersion() || '0'),
    instances: () => system.apiserver.store.list().map(i => [i.metadata.namespace ?? '', i.metadata.name ?? ''] as const),
    stop: async () => {
      client.close();
      await system.stop();
    },
  };
}
