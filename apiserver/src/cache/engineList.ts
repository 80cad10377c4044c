import {
  DATABASE_ENGINE_KIND,
  DATABASES_GROUP_VERSION,
  type DatabaseEngine,
  type DatabasePhase,
} from '@internal/plugin-databases-common';
import type { OperatorAdapter, SourceKind } from '../adapters/types';
import { engineOffer, type EngineConfig } from '../engines';

/** What {@link engineList} reads of the cache. */
export interface EngineListInput {
  adapters: readonly OperatorAdapter[];
  /** The kind's CRD is served and its informer runs. */
  installed(kind: SourceKind): boolean;
  /** creationTimestamp of the kind's CRD, if known. */
  crdCreated(kind: SourceKind): string | undefined;
  /** Every served instance: the adapter it is projected by, and its phase. */
  instances: Iterable<{ adapter: OperatorAdapter | undefined; phase: DatabasePhase | undefined }>;
  resourceVersion: string;
  /** The platform team's versions and sizes per engine (`--engine-config`). */
  engineConfig?: EngineConfig;
}

/** One DatabaseEngine per adapter: what it offers, whether its operator is installed, how its instances fare. */
export function engineList(input: EngineListInput): DatabaseEngine[] {
  const counts = new Map<OperatorAdapter, { instances: number; phases: Partial<Record<DatabasePhase, number>> }>();
  for (const { adapter, phase } of input.instances) {
    if (!adapter) continue;
    const c = counts.get(adapter) ?? { instances: 0, phases: {} };
    c.instances++;
    const p = phase ?? 'Unknown';
    c.phases[p] = (c.phases[p] ?? 0) + 1;
    counts.set(adapter, c);
  }
  return input.adapters.map(adapter => {
    const crds = adapter.kinds.map(kind => ({
      kind: kind.kind,
      group: kind.group,
      installed: input.installed(kind),
    }));
    const { instances, phases } = counts.get(adapter) ?? { instances: 0, phases: {} };
    const installed = crds.every(c => c.installed);
    // The operator counts as installed since its oldest served CRD was created.
    const created = installed
      ? adapter.kinds
          .map(k => input.crdCreated(k))
          .filter((t): t is string => !!t && !Number.isNaN(Date.parse(t)))
          .sort((a, b) => Date.parse(a) - Date.parse(b))[0]
      : undefined;
    return {
      apiVersion: DATABASES_GROUP_VERSION,
      kind: DATABASE_ENGINE_KIND,
      metadata: {
        name: adapter.engine,
        resourceVersion: input.resourceVersion,
        ...(created ? { creationTimestamp: created } : {}),
      },
      spec: {
        engine: adapter.engine,
        operator: adapter.operator,
        capabilityLevel: adapter.capabilityLevel,
        kinds: adapter.kinds.map(k => ({
          group: k.group,
          version: k.version,
          kind: k.kind,
          plural: k.plural,
          topologies: k.topologies,
        })),
        // what a new instance can be, as configured (read-only adapters list what they read)
        ...engineOffer(adapter, input.engineConfig?.engines[adapter.engine]),
      },
      status: {
        installed,
        crds,
        instances,
        phases,
      },
    } satisfies DatabaseEngine;
  });
}
