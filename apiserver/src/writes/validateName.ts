import { type FieldCause, invalid, required } from './FieldCause';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** apimachinery's message for a name that is not a DNS-1123 label. */
const DNS1123_LABEL_MESSAGE =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

/**
 * Validates the name of a new instance. It becomes the operator object's name and the prefix
 * of the Services, StatefulSets and Secrets the operator creates, so it must be a DNS-1123
 * label short enough that the operator's longest derived name still fits 63 characters
 * (`maxLength`, per engine).
 */
export function validateInstanceName(
  name: unknown,
  maxLength: number,
  operator: string,
): FieldCause[] {
  const field = 'metadata.name';
  if (name === undefined || name === '')
    return [required(field, 'name or generateName is required')];
  if (typeof name !== 'string')
    return [invalid(field, name, 'must be a string')];
  const causes: FieldCause[] = [];
  if (name.length > maxLength)
    causes.push(
      invalid(
        field,
        name,
        `must be no more than ${maxLength} characters: ${operator} derives the names of the objects it creates from it`,
      ),
    );
  if (!DNS1123_LABEL.test(name))
    causes.push(invalid(field, name, DNS1123_LABEL_MESSAGE));
  return causes;
}
