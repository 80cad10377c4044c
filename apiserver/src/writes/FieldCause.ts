/**
 * One bad field of a request, as apimachinery's `metav1.StatusCause` (field.Error) carries it:
 * `reason` is the cause type, `message` the body without the field path, `field` the JSON path.
 * The HTTP layer puts these into a `422 Invalid` Status unchanged.
 */
export interface FieldCause {
  reason: FieldCauseReason;
  message: string;
  field: string;
}

/** apimachinery's `metav1.CauseType` values for field errors. */
export type FieldCauseReason =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueTypeInvalid';

/** A value as field.Error prints it: strings quoted (Go `%q`), everything else as JSON. */
export function formatFieldValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined) return 'null';
  return JSON.stringify(value);
}

/** `Required value` (+ detail). */
export const required = (field: string, detail?: string): FieldCause => ({
  reason: 'FieldValueRequired',
  field,
  message: detail ? `Required value: ${detail}` : 'Required value',
});

/** `Invalid value: <v>: <detail>`. */
export const invalid = (
  field: string,
  value: unknown,
  detail: string,
): FieldCause => ({
  reason: 'FieldValueInvalid',
  field,
  message: `Invalid value: ${formatFieldValue(value)}: ${detail}`,
});

/** `Unsupported value: <v>: supported values: "a", "b"`. */
export const notSupported = (
  field: string,
  value: unknown,
  supported: readonly string[],
): FieldCause => ({
  reason: 'FieldValueNotSupported',
  field,
  message: `Unsupported value: ${formatFieldValue(value)}${
    supported.length > 0
      ? `: supported values: ${supported.map(s => JSON.stringify(s)).join(', ')}`
      : ''
  }`,
});

/** `Forbidden: <detail>`. */
export const forbidden = (field: string, detail: string): FieldCause => ({
  reason: 'FieldValueForbidden',
  field,
  message: `Forbidden: ${detail}`,
});

/** `Invalid value: <v>: field is immutable` (apimachinery's ValidateImmutableField). */
export const immutable = (field: string, value: unknown): FieldCause =>
  invalid(field, value, 'field is immutable');

/** `Invalid value: <v>: must be of type <type>` for values of the wrong JSON type. */
export const typeInvalid = (
  field: string,
  value: unknown,
  type: string,
): FieldCause => ({
  reason: 'FieldValueTypeInvalid',
  field,
  message: `Invalid value: ${formatFieldValue(value)}: must be of type ${type}`,
});

/** `<field>: <message>` as kubectl prints one cause. */
export const describeCause = (cause: FieldCause) =>
  `${cause.field}: ${cause.message}`;
