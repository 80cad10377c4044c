import path from 'node:path';
import type { DatabaseInstance } from '@internal/plugin-databases-common';
import { defaultOptions, startApiserver } from '@internal/databases-apiserver';
import type { System } from '../../support/startSystem';

const silent = { info: () => {}, warn: () => {}, error: () => {} };

/**
 * The truth: what a brand-new apiserver projects from the cluster as it is now (its own
 * informers, a fresh list of every operator object). Started beside the system's apiserver
 * with the same credentials and stopped again.
 */
export async function freshProjection(system: System): Promise<DatabaseInstance[]> {
  const fresh = await startApiserver(
    {
      ...defaultOptions(),
      securePort: 0,
      bindAddress: '127.0.0.1',
      kubeconfig: path.join(system.dir, 'apiserver.kubeconfig'),
      tlsCertFile: path.join(system.dir, 'tls.crt'),
      tlsKeyFile: path.join(system.dir, 'tls.key'),
    },
    { logger: silent },
  );
  try {
    await fresh.store.whenSynced();
    return fresh.store.list();
  } finally {
    await fresh.shutdown(0);
  }
}

/**
 * Instances keyed by `namespace/name`, without what legitimately differs between two replicas
 * that hold the same state: the resourceVersion (a replica may raise it, see the cache) and
 * the time a name conflict was first seen.
 */
export function comparable(instances: readonly any[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const key = (i: any) => `${i.metadata?.namespace}/${i.metadata?.name}`;
  // sorted, so that two equal sets stringify equally whatever order they came in
  for (const i of [...instances].sort((a, b) => key(a).localeCompare(key(b)))) {
    const { resourceVersion: _rv, managedFields: _mf, ...metadata } = i.metadata ?? {};
    const conditions = (i.status?.conditions ?? []).map((c: any) =>
      c.type === 'NameConflict' ? { ...c, lastTransitionTime: undefined } : c,
    );
    out[`${metadata.namespace}/${metadata.name}`] = {
      ...i,
      metadata,
      ...(i.status ? { status: { ...i.status, conditions } } : {}),
    };
  }
  return out;
}

/**
 * Waits until `served()` equals the truth, taken again every few reads: after the operators
 * settle, the apiserver still writes of its own accord (binding Secrets, Ready-spec records),
 * which moves the truth on after a first look. Resolves with the truth served; throws with
 * `step` after `timeoutMs`.
 */
export async function untilServedIsTruth(
  system: System,
  served: () => Promise<readonly unknown[]>,
  step: string,
  timeoutMs = 20_000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const truth = comparable(await freshProjection(system));
    const expected = JSON.stringify(truth);
    for (let read = 0; read < 10; read++) {
      if (JSON.stringify(comparable(await served())) === expected) return truth;
      await new Promise(r => setTimeout(r, 50));
    }
    if (Date.now() > deadline) throw new Error(`${step}: served differs from the truth`);
  }
}
