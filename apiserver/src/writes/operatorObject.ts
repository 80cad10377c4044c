import type { DatabaseInstance } from '@internal/plugin-databases-common';
import type { BuildOptions, KubeObject, ResourceType } from '../adapters/types';
import { operatorMetadata } from './operatorMetadata';

/** A new operator object of `kind` for an instance: type, our metadata, and the adapter's spec. */
export function operatorObject(
  kind: ResourceType,
  instance: DatabaseInstance,
  options: BuildOptions | undefined,
  spec: Record<string, unknown>,
): KubeObject {
  return {
    apiVersion: `${kind.group}/${kind.version}`,
    kind: kind.kind,
    metadata: operatorMetadata(instance, options),
    spec,
  };
}
