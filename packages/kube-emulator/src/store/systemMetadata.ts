import { conflictError, type FieldCause } from './storeErrors';
import { groupVersion, isCrd, type Obj } from './storeKeys';
import type { ResourceDefinition, StoredObject } from './types';

const immutable = (field: string, value: unknown): FieldCause => ({
  reason: 'FieldValueInvalid',
  message: `Invalid value: ${JSON.stringify(value ?? '')}: field is immutable`,
  field,
});

/**
 * What an update writes: through the status subresource, the stored object with the given
 * status; otherwise the given object, keeping the stored status where status is a subresource.
 */
export function writtenObject(def: ResourceDefinition, given: Obj, old: StoredObject, subresource?: 'status'): Obj {
  if (subresource === 'status') {
    const obj = structuredClone(old) as Obj;
    if (given.status === undefined) delete obj.status;
    else obj.status = given.status;
    return obj;
  }
  if (def.statusSubresource) {
    if (old.status === undefined) delete given.status;
    else given.status = structuredClone(old.status);
  }
  return given;
}

/** What a create may not set: the system's fields go, apiVersion and kind are the version written through. */
export function resetForCreate(def: ResourceDefinition, obj: Obj): void {
  obj.apiVersion = groupVersion(def);
  obj.kind = def.kind;
  for (const f of [
    'uid',
    'resourceVersion',
    'creationTimestamp',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'generation',
    'selfLink',
  ]) {
    delete obj.metadata[f];
  }
}

/**
 * What an update may not change, put back from the stored object as kube-apiserver does (name,
 * namespace, uid, creationTimestamp, deletion fields, generation; apiVersion and kind of the
 * version written through), and the causes of what it tried to change that it may not: another
 * uid, new finalizers on an object being deleted, a CRD's group or plural.
 */
export function carryOverMetadata(def: ResourceDefinition, obj: Obj, old: StoredObject): FieldCause[] {
  const meta: Obj = obj.metadata;
  const oldMeta = old.metadata;
  const causes: FieldCause[] = [];
  if (meta.uid && meta.uid !== oldMeta.uid) causes.push(immutable('metadata.uid', meta.uid));
  obj.apiVersion = groupVersion(def);
  obj.kind = def.kind;
  meta.name = oldMeta.name;
  if (def.namespaced) meta.namespace = oldMeta.namespace;
  else delete meta.namespace;
  meta.uid = oldMeta.uid;
  meta.creationTimestamp = oldMeta.creationTimestamp;
  meta.resourceVersion = oldMeta.resourceVersion;
  delete meta.selfLink;
  for (const f of [
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'generation',
  ] as const) {
    if (oldMeta[f] === undefined) delete meta[f];
    else meta[f] = oldMeta[f];
  }
  if (oldMeta.deletionTimestamp) {
    const before = new Set(oldMeta.finalizers ?? []);
    const added = ((meta.finalizers as string[] | undefined) ?? []).filter(
      f => !before.has(f),
    );
    if (added.length) {
      causes.push({
        reason: 'FieldValueForbidden',
        message: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map(f => JSON.stringify(f)).join(', ')}}`,
        field: 'metadata.finalizers',
      });
    }
  }
  if (isCrd(def)) {
    const prevSpec = (old as Obj).spec ?? {};
    const spec = obj.spec ?? {};
    if (prevSpec.group !== spec.group)
      causes.push(immutable('spec.group', spec.group));
    if (prevSpec.names?.plural !== spec.names?.plural)
      causes.push(immutable('spec.names.plural', spec.names?.plural));
  }
  return causes;
}

/** A delete's preconditions: the 409 Conflict kube-apiserver answers when the object is not the one meant. */
export function checkPreconditions(
  def: ResourceDefinition,
  name: string,
  old: StoredObject,
  pre: { uid?: string; resourceVersion?: string } | undefined,
): void {
  if (pre?.uid && pre.uid !== old.metadata.uid) {
    throw conflictError(def, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${old.metadata.uid}`);
  }
  if (pre?.resourceVersion && pre.resourceVersion !== old.metadata.resourceVersion) {
    throw conflictError(
      def,
      name,
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${old.metadata.resourceVersion}`,
    );
  }
}
