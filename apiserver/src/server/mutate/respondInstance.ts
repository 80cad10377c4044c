import type { ServerResponse } from 'node:http';
import type { DatabaseInstance } from '@internal/plugin-databases-common';
import type { KubeObject, OperatorAdapter, SourceKind } from '../../adapters/types';
import { rvToBigInt } from '../../cache/resourceVersion';
import { negotiateOutput } from '../negotiate';
import { sendEncoded } from '../respond';
import { waitForStore } from '../waitForStore';
import type { WriteDeps } from './WriteDeps';

/**
 * The instance an operator object projects to, by itself: what a write answers before (or
 * without) the watch cache seeing it. Related objects (StatefulSets) are not consulted: a
 * just-written object's status is the operator's to fill in.
 */
export function projectObject(
  source: { adapter: OperatorAdapter; kind: SourceKind },
  object: KubeObject,
  servedName?: string,
): DatabaseInstance {
  const projected = source.adapter.project(object, source.kind, { get: () => undefined });
  const rv = object.metadata?.resourceVersion;
  return {
    ...projected,
    metadata: {
      ...projected.metadata,
      ...(servedName ? { name: servedName } : {}),
      ...(rv ? { resourceVersion: rv } : {}),
    },
  };
}

/** True when `rv` is at least `min` (both decimal resourceVersions). */
export const rvAtLeast = (rv: string | undefined, min: string | undefined) =>
  rv !== undefined && min !== undefined && rvToBigInt(rv) >= rvToBigInt(min);

/**
 * True when the served `namespace/name` is built from its operator object at `rv` or later. Its
 * own resourceVersion stays put when that version changed nothing served (ServedInstances).
 */
export const servedFrom = (deps: Pick<WriteDeps, 'store'>, namespace: string, name: string, rv: string | undefined) =>
  rvAtLeast(deps.store.get(namespace, name)?.metadata.resourceVersion, rv) || rvAtLeast(deps.store.builtFromRv?.(namespace, name), rv);

/**
 * True when a client's resourceVersion `clientRv` is stale: the operator object changed after it
 * (served resourceVersions can be raised by related objects and the cache, so equality would
 * refuse fresh requests), unless what changed is nothing served and the client holds the
 * instance as served now (a member pod's write, the operator's unserved fields).
 */
export function staleResourceVersion(
  deps: Pick<WriteDeps, 'store'>,
  namespace: string,
  name: string,
  clientRv: string,
  sourceRv: string | undefined,
  servedRv: string | undefined,
): boolean {
  if (rvToBigInt(clientRv) >= rvToBigInt(sourceRv)) return false;
  return !(deps.store.builtFromRv?.(namespace, name) === sourceRv && rvAtLeast(clientRv, servedRv));
}

/** Waits until `done` holds in the store, at most `deps.cacheWaitMs`; never throws. */
export function waitForCache(deps: WriteDeps, done: () => boolean): Promise<boolean> {
  return waitForStore(listener => deps.store.onApplied(listener), done, deps.cacheWaitMs);
}

/**
 * Waits for an instance this process created and answered 201 for, but that the watch cache
 * does not show yet (an overloaded kube-apiserver delivers late): a write right after the
 * create must not be a 404 for an object the client was just told exists. At most the longer
 * of `cacheWaitMs` and 5 s, the budget of one call to kube-apiserver.
 */
export async function awaitRecentCreate(deps: WriteDeps, namespace: string, name: string): Promise<void> {
  if ((deps.store.get(namespace, name) && deps.store.source(namespace, name)) || !deps.recentCreates.has(`${namespace}/${name}`)) return;
  await waitForCache({ ...deps, cacheWaitMs: Math.max(deps.cacheWaitMs, 5000) }, () => !!deps.store.get(namespace, name) && !!deps.store.source(namespace, name));
}

/** `Warning` header values (RFC 7234 code 299, as k8s.io/apiserver writes them). */
export const warningHeaders = (warnings: string[]) => {
  // warnings quote client input (unknown field names): bound them as k8s.io/apiserver's recorder
  // does (past 4096 runes in all, each is cut to 256), and send what Node refuses in a header
  // (controls, non-Latin-1) the way Go writes it: CR/LF as spaces, the rest as UTF-8 bytes
  const total = warnings.reduce((n, w) => n + [...w].length, 0);
  const bounded = total > 4096 ? warnings.map(w => ([...w].length > 256 ? `${[...w].slice(0, 256).join('')}...` : w)) : warnings;
  const controlsToSpaces = (text: string) =>
    Array.from(text, c => (c.charCodeAt(0) === 0x7f || (c.charCodeAt(0) < 0x20 && c !== '\t') ? ' ' : c)).join('');
  return bounded.map(w =>
    Buffer.from(controlsToSpaces(`299 - "${w.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`), 'utf8').toString('latin1'),
  );
};

/** Sends an object as JSON (or YAML when asked for) with optional warnings. */
export function sendObject(
  res: ServerResponse,
  accept: string | undefined,
  code: number,
  obj: unknown,
  warnings: string[] = [],
): void {
  // writes answer the object itself; Table/metadata transforms are for reads
  let encoding: 'json' | 'yaml' = 'json';
  try {
    encoding = negotiateOutput(accept, 'object').encoding === 'yaml' ? 'yaml' : 'json';
  } catch {
    // an Accept we cannot satisfy still gets JSON: the write has happened
  }
  if (warnings.length) res.setHeader('Warning', warningHeaders(warnings));
  sendEncoded(res, code, JSON.stringify(obj), { encoding });
}
