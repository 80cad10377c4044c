import {
  DATABASES_GROUP_VERSION,
  type DatabaseInstance,
} from '@internal/plugin-databases-common';
import type {
  KubeObject,
  OperatorAdapter,
  SourceKind,
} from '../adapters/types';
import { buildConditions } from '../status/conditions';
import { projectionFailure, sourceMetadata } from './fallbackParts';

/** What we serve when an adapter throws: the object exists, its state is not understood. */
export function fallbackInstance(
  entry: { adapter: OperatorAdapter; kind: SourceKind },
  source: KubeObject,
  err: unknown,
): DatabaseInstance {
  const { source: ref, operatorStatus, ...why } = projectionFailure(entry, source, err);
  const verdict = { phase: 'Unknown' as const, ...why };
  return {
    apiVersion: DATABASES_GROUP_VERSION,
    kind: 'DatabaseInstance',
    metadata: sourceMetadata(source),
    spec: { engine: entry.adapter.engine },
    status: {
      ...verdict,
      // Ready=Unknown: with no conditions at all, kstatus (Flux) would read the object Current
      conditions: buildConditions(verdict),
      source: ref,
      ...(operatorStatus !== undefined ? { operatorStatus } : {}),
    },
  };
}
