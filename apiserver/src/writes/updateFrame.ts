import type { DatabaseInstanceSpec } from '@internal/plugin-databases-common';
import type { AdapterWriteSide, KubeObject } from '../adapters/types';
import { checkUpdate } from './checkUpdate';
import type { EngineRules } from './EngineRules';
import { type FieldCause, forbidden } from './FieldCause';
import { cloneObject, setDeletionProtection } from './operatorMetadata';
import type { PauseSwitch } from './pauseSwitch';
import { primaryChangeOf, switchoverRefusals, type PrimarySwitch } from './primarySwitch';

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
  /**
   * How the operator pauses an instance; without one, `spec.paused: true` is refused. The
   * write side's `pause` too (`updateSide`), so creation and validation see the same one.
   */
  pause?: PauseSwitch;
  /** How the operator moves its primary (`spec.primary`); without one, a change is refused. */
  primary?: PrimarySwitch;
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

/** The pause a spec asks for, when it differs from the current one (absent is not paused). */
function pauseChangeOf(
  next: DatabaseInstanceSpec,
  previous: DatabaseInstanceSpec,
): boolean | undefined {
  if (next.paused === undefined) return undefined;
  return next.paused === (previous.paused === true) ? undefined : next.paused;
}

/** `spec.paused: true` for an operator that has no way to pause an instance. */
export const pauseRefused = (operator: string): FieldCause =>
  forbidden(
    'spec.paused',
    `${operator} has no documented way to pause an instance (no suspend field, annotation or label); scale it or delete it instead`,
  );

/**
 * An adapter's `applyUpdate` from its frame. Every operator refuses the same things first
 * (all causes at once, so a client fixes its request in one go), changes only a copy, and
 * carries deletion protection as our annotation, whatever its fields are called.
 */
function updateFrom(frame: UpdateFrame): AdapterWriteSide['applyUpdate'] {
  return (current, next, previous, context = {}) => {
    const causes = checkUpdate(frame.rules, next, previous);
    const pauseChange = pauseChangeOf(next, previous);
    if (pauseChange === true && !frame.pause)
      causes.push(pauseRefused(frame.rules.operator));
    const primaryChange = primaryChangeOf(next, previous);
    if (primaryChange !== undefined)
      causes.push(...switchoverRefusals(frame.rules.operator, frame.primary, current, primaryChange, context.members));
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
    if (pauseChange !== undefined) frame.pause?.set(object, pauseChange);
    if (primaryChange !== undefined)
      frame.primary?.set(object, primaryChange, context.now ?? new Date().toISOString());
    setDeletionProtection(object, next.deletionProtection);
    return { object };
  };
}

/**
 * The update half of an adapter's write side, from its frame: `applyUpdate`, and the frame's
 * pause and primary switch as the write side's (absent when the frame has none), so that an
 * operator names each once, in the frame. Adapters spread it into their write side.
 */
export function updateSide(
  frame: UpdateFrame,
): Pick<AdapterWriteSide, 'pause' | 'primary' | 'applyUpdate'> {
  return {
    ...(frame.pause && { pause: frame.pause }),
    ...(frame.primary && { primary: frame.primary }),
    applyUpdate: updateFrom(frame),
  };
}
