import type { DatabaseInstanceSpec } from '@internal/plugin-databases-common';
import type { AdapterWriteSide, KubeObject } from '../adapters/types';
import { checkUpdate } from './checkUpdate';
import type { EngineRules } from './EngineRules';
import type { FieldCause } from './FieldCause';
import { cloneObject, setDeletionProtection } from './operatorMetadata';

/** What an accepted update asks of the operator object, in our spec's terms. */
export interface SpecChange {
  /** The new version, only when it differs from the current one. */
  version?: string;
  replicas?: number;
  /** The new storage size, only when it differs from the current one. */
  storageSize?: string;
  storageClassName?: string;
  resources?: DatabaseInstanceSpec['resources'];
}

/** How one operator takes an update: its rules, its own refusals, where each field goes. */
export interface UpdateFrame {
  rules: EngineRules;
  /** Refusals beyond the shared rules' (`found`, from `checkUpdate`), read off the current object. */
  refuse?(
    current: KubeObject,
    next: DatabaseInstanceSpec,
    previous: DatabaseInstanceSpec,
    found: readonly FieldCause[],
  ): FieldCause[];
  /** Writes the change into a copy of the operator object (`spec` is its spec). */
  write(
    spec: Record<string, any>,
    change: SpecChange,
    object: KubeObject,
  ): void;
}

/**
 * An adapter's `applyUpdate` from its frame. Every operator refuses the same things first
 * (all causes at once, so a client fixes its request in one go), changes only a copy, and
 * carries deletion protection as our annotation, whatever its fields are called.
 */
export function updateFrom(
  frame: UpdateFrame,
): AdapterWriteSide['applyUpdate'] {
  return (current, next, previous) => {
    const causes = checkUpdate(frame.rules, next, previous);
    causes.push(...(frame.refuse?.(current, next, previous, causes) ?? []));
    if (causes.length > 0) return { causes };
    const object = cloneObject(current);
    const spec = (object.spec ??= {});
    const sizeChanged =
      next.storage?.size && next.storage.size !== previous.storage?.size;
    frame.write(
      spec,
      {
        ...(next.version &&
          next.version !== previous.version && { version: next.version }),
        ...(next.replicas !== undefined && { replicas: next.replicas }),
        ...(sizeChanged && { storageSize: next.storage!.size }),
        ...(next.storage?.storageClassName && {
          storageClassName: next.storage.storageClassName,
        }),
        ...(next.resources && { resources: next.resources }),
      },
      object,
    );
    setDeletionProtection(object, next.deletionProtection);
    return { object };
  };
}
