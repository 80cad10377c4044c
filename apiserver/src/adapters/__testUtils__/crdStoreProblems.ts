import { isDeepStrictEqual } from 'node:util';
// kube-apiserver's structural-schema semantics as the emulator applies them (tests only).
import { SchemaValidator } from '@internal/kube-emulator/src/store/SchemaValidator';
import { pruneUnknownFields } from '@internal/kube-emulator/src/store/structuralSchema';
import type { KubeObject, SourceKind } from '../types';
import { crdSchema } from './operatorFiles';

const validator = new SchemaValidator();
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * What kube-apiserver would drop or refuse in a create of `object` as a `kind` of the upstream
 * CRD of `operator`: fields pruning removes, and the schema's causes (OpenAPI, CEL). None means
 * the cluster stores what was sent (as upstreamWrites.test does for instances).
 */
export function crdStoreProblems(operator: string, kind: SourceKind, object: KubeObject): string[] {
  const problems: string[] = [];
  if (object.apiVersion !== `${kind.group}/${kind.version}` || object.kind !== kind.kind)
    problems.push(`written as ${object.apiVersion} ${object.kind}`);
  const schema = crdSchema(operator, kind);
  const stored = clone(object);
  for (const field of pruneUnknownFields(stored, schema)) problems.push(`pruned: ${field}`);
  if (!isDeepStrictEqual(stored, object)) problems.push('pruning changed the object');
  for (const cause of validator.validate(schema, clone(object)).causes) problems.push(`${cause.field}: ${cause.message}`);
  return problems;
}
