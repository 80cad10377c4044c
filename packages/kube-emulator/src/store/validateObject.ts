import { crdDefinitions } from './crdDefinitions';
import type { SchemaValidator } from './SchemaValidator';
import type { FieldCause } from './storeErrors';
import { isCrd, isNamespace, type Obj } from './storeKeys';
import type { ResourceDefinition } from './types';
import { validateMetadata } from './validateMetadata';
import { isRbacResource, rbacObjectCauses } from './validateRbacObject';

/** Every cause kube-apiserver would give for writing `obj` (over `old`): metadata, RBAC, CRD and schema rules. */
export function validateObject(validator: SchemaValidator, def: ResourceDefinition, obj: Obj, old?: Obj): FieldCause[] {
  const causes = validateMetadata(obj.metadata, {
    nameIsLabel: isNamespace(def),
    nameIsPathSegment: isRbacResource(def),
  });
  causes.push(...rbacObjectCauses(def, obj, old));
  if (isCrd(def)) causes.push(...crdDefinitions(obj).causes);
  if (def.schema) causes.push(...validator.validate(def.schema, obj, old).causes);
  return causes;
}
