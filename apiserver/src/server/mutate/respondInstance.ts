import type { ServerResponse } from 'node:http';
import type { DatabaseInstance } from '@internal/plugin-databases-common';
import type { KubeObject, OperatorAdapter, SourceKind } from '../../adapters/types';
import { rvToBigInt } from '../../cache/resourceVersion';
import { negotiateOutput } from '../negotiate';
import { sendEncoded } from '../respond';
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

/** Polls `done` until it holds or `deps.cacheWaitMs` passed; never throws. */
export async function waitForCache(deps: WriteDeps, done: () => boolean): Promise<boolean> {
  const deadline = Date.now() + deps.cacheWaitMs;
  while (!done()) {
    if (Date.now() >= deadline) return false;
    await new Promise(r => setTimeout(r, 20));
  }
  return true;
}

/** `Warning` header values (RFC 7234 code 299, as k8s.io/apiserver writes them). */
export const warningHeaders = (warnings: string[]) =>
  warnings.map(w => `299 - "${w.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`);

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
