import {
  type DatabaseEngineName,
  type DatabaseInstance,
  type DatabaseInstanceSpec,
} from '@internal/plugin-databases-common';
import type {
  AdapterWriteSide,
  KubeObject,
  OperatorAdapter,
  ValidationContext,
} from '../adapters/types';
import { applyDefaults } from './defaults';
import {
  type FieldCause,
  forbidden,
  notSupported,
  required,
  typeInvalid,
} from './FieldCause';
import { quantitiesAsStrings } from './quantitiesAsStrings';
import { validateInstanceName } from './validateName';
import { pauseRefused } from './updateFrame';
import type { UpdateContext } from './primarySwitch';

/**
 * Per engine, what this cluster narrows (`--engine-config`); an engine without an entry
 * offers what its adapter documents.
 */
export type EngineValidationContexts = Partial<
  Record<DatabaseEngineName, ValidationContext>
>;

/** An adapter that can write, with its write side. */
export interface WritableAdapter {
  adapter: OperatorAdapter;
  write: AdapterWriteSide;
}

/** The adapter for `spec.engine`, or the cause naming the field when there is none. */
export function writableAdapterFor(
  spec: unknown,
  adapters: readonly OperatorAdapter[],
): WritableAdapter | FieldCause {
  const engines = adapters.filter(a => a.write).map(a => a.engine);
  if (spec === undefined || spec === null) return required('spec');
  if (typeof spec !== 'object' || Array.isArray(spec))
    return typeInvalid('spec', spec, 'object');
  const engine: unknown = (spec as Record<string, unknown>).engine;
  if (engine === undefined || engine === '') return required('spec.engine');
  const adapter = adapters.find(a => a.engine === engine && a.write);
  if (!adapter) return notSupported('spec.engine', engine, engines);
  return { adapter, write: adapter.write! };
}

/** Outcome of preparing a create: the defaulted instance, or every reason it is invalid. */
export type PreparedCreate =
  | {
      instance: DatabaseInstance;
      adapter: OperatorAdapter;
      write: AdapterWriteSide;
      causes: [];
    }
  | { causes: FieldCause[] };

/**
 * Create-time defaulting and validation, in apiserver order: engine known, defaults applied,
 * then name (DNS-1123 label, per-engine length) and the engine's own checks. The name must
 * already be final (generateName resolved).
 */
export function prepareCreate(
  instance: DatabaseInstance,
  adapters: readonly OperatorAdapter[],
  contexts: EngineValidationContexts = {},
): PreparedCreate {
  const found = writableAdapterFor(instance.spec, adapters);
  if ('reason' in found) return { causes: [found] };
  const { adapter, write } = found;
  const ctx = contexts[adapter.engine];
  const spec = applyDefaults(quantitiesAsStrings(instance.spec), write, ctx);
  const causes = [
    ...validateInstanceName(
      instance.metadata?.name,
      write.maxNameLength,
      adapter.operator,
    ),
    ...write.validate(spec, ctx),
  ];
  if (spec.paused === true && !write.pause)
    causes.push(pauseRefused(adapter.operator));
  if (spec.primary !== undefined)
    causes.push(forbidden('spec.primary', 'a new instance has no members yet: its operator picks the first primary; switch over once it is Ready'));
  if (causes.length > 0) return { causes };
  return { instance: { ...instance, spec }, adapter, write, causes: [] };
}

/** The storage of an update: unset keeps the current one; a storage of the wrong type (null, a string) is left for validation to name. */
function mergedStorage(next: DatabaseInstanceSpec['storage'], previous: DatabaseInstanceSpec['storage']): DatabaseInstanceSpec['storage'] {
  if (next === undefined) return previous;
  if (typeof next !== 'object' || next === null || Array.isArray(next)) return next;
  return { ...next, size: next.size ?? previous?.size };
}

/**
 * Update-time validation and mapping: `next` is the whole new spec (after a merge or JSON
 * patch, or a PUT), `previous` the spec as projected now, `current` the operator object.
 * Fields the new spec leaves out keep their current values, then the engine's checks run
 * and the change is mapped onto the operator object.
 */
export function prepareUpdate(
  current: KubeObject,
  next: DatabaseInstanceSpec,
  previous: DatabaseInstanceSpec,
  adapters: readonly OperatorAdapter[],
  contexts: EngineValidationContexts = {},
  update: UpdateContext = {},
):
  | { object: KubeObject; spec: DatabaseInstanceSpec }
  | { causes: FieldCause[] } {
  const found = writableAdapterFor(next, adapters);
  if ('reason' in found) return { causes: [found] };
  const ctx = contexts[found.adapter.engine];
  const sent = quantitiesAsStrings(next);
  const spec: DatabaseInstanceSpec = {
    ...sent,
    restoreFrom: previous.restoreFrom,
    topology: next.topology ?? previous.topology,
    version: next.version ?? previous.version,
    replicas: next.replicas ?? previous.replicas,
    storage: mergedStorage(sent.storage, previous.storage),
  };
  const causes = ratchet(found.write.validate(spec, ctx), spec, previous);
  const restore = restoreChange(next.restoreFrom, previous.restoreFrom);
  if (restore) causes.push(restore);
  if (causes.length > 0) return { causes };
  const result = found.write.applyUpdate(current, spec, previous, update);
  return 'causes' in result ? result : { object: result.object, spec };
}

/**
 * `spec.restoreFrom` belongs to creation: an update that adds or changes it is refused. The
 * projection reads it back from the operator object, so an apply that sends it unchanged passes,
 * and one that leaves it out keeps it.
 */
function restoreChange(next: unknown, previous: unknown): FieldCause | undefined {
  if (next === undefined || JSON.stringify(next) === JSON.stringify(previous)) return undefined;
  return forbidden('spec.restoreFrom', 'a restore is chosen only when the instance is created: create a new instance with spec.restoreFrom');
}

/** The value at a `spec.a.b` cause path. */
function valueAt(spec: DatabaseInstanceSpec, field: string): unknown {
  let value: unknown = { spec };
  for (const part of field.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/**
 * Ratcheting, as Kubernetes does for CRD validation: an update is not refused for a value it
 * does not change. Adopted objects may hold values we would not accept on create (an even
 * Galera size with replicasAllowEvenNumber, a version no longer offered); keeping them is fine.
 */
export function ratchet(
  causes: FieldCause[],
  next: DatabaseInstanceSpec,
  previous: DatabaseInstanceSpec,
): FieldCause[] {
  // Requests are checked against limits: a change to either side re-validates both.
  const scope = (field: string) =>
    field.startsWith('spec.resources.') ? 'spec.resources' : field;
  return causes.filter(
    c =>
      JSON.stringify(valueAt(next, scope(c.field))) !==
      JSON.stringify(valueAt(previous, scope(c.field))),
  );
}
