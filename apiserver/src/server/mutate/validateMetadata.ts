import type { ObjectMeta } from '@internal/plugin-databases-common';
import { invalid, type FieldCause } from '../../writes/FieldCause';
import { isLabelValue } from '../../writes/labelValue';

const NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME_MESSAGE =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MESSAGE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const MAX_ANNOTATIONS_BYTES = 256 * 1024;

/** Why `key` is not a qualified name (`prefix/name`), or undefined (apimachinery IsQualifiedName). */
function qualifiedNameProblem(key: string): string | undefined {
  const parts = key.split('/');
  if (parts.length > 2) return QUALIFIED_NAME_MESSAGE;
  const name = parts[parts.length - 1];
  if (parts.length === 2) {
    const prefix = parts[0];
    if (!prefix) return 'prefix part must be non-empty';
    if (prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix)) {
      return "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
    }
  }
  if (!name) return 'name part must be non-empty';
  if (name.length > 63) return 'name part must be no more than 63 characters';
  return NAME_PART.test(name) ? undefined : QUALIFIED_NAME_MESSAGE;
}

/**
 * Labels and annotations as kube-apiserver validates them (they are copied onto the operator
 * object, whose own validation would otherwise refuse them under another kind's name).
 */
export function validateMetadata(metadata: ObjectMeta): FieldCause[] {
  const causes: FieldCause[] = [];
  for (const [key, value] of Object.entries(metadata.labels ?? {})) {
    const problem = qualifiedNameProblem(key);
    if (problem) causes.push(invalid('metadata.labels', key, problem));
    if (!isLabelValue(value)) causes.push(invalid('metadata.labels', value, LABEL_VALUE_MESSAGE));
  }
  let size = 0;
  for (const [key, value] of Object.entries(metadata.annotations ?? {})) {
    const problem = qualifiedNameProblem(key);
    if (problem) causes.push(invalid('metadata.annotations', key, problem));
    size += key.length + value.length;
  }
  if (size > MAX_ANNOTATIONS_BYTES) {
    causes.push({
      reason: 'FieldValueTooLong',
      field: 'metadata.annotations',
      message: `Too long: must have at most ${MAX_ANNOTATIONS_BYTES} bytes`,
    });
  }
  return causes;
}
