import type { FieldCause } from './storeErrors';

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const QUALIFIED_NAME = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE = `(${QUALIFIED_NAME})?`;

const labelRe = new RegExp(`^${DNS1123_LABEL}$`);
const subdomainRe = new RegExp(`^${DNS1123_SUBDOMAIN}$`);
const qualifiedNameRe = new RegExp(`^${QUALIFIED_NAME}$`);
const labelValueRe = new RegExp(`^${LABEL_VALUE}$`);

const q = (v: string) => JSON.stringify(v);

/** Messages below are kube's own (k8s.io/apimachinery/pkg/util/validation). */
function subdomainErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!subdomainRe.test(value)) {
    errs.push(
      `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '${DNS1123_SUBDOMAIN}')`,
    );
  }
  return errs;
}

function labelErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!labelRe.test(value)) {
    errs.push(
      `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '${DNS1123_LABEL}')`,
    );
  }
  return errs;
}

function qualifiedNameErrors(value: string): string[] {
  const parts = value.split('/');
  let name = value;
  const errs: string[] = [];
  if (parts.length === 2) {
    const [prefix] = parts;
    name = parts[1];
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else errs.push(...subdomainErrors(prefix).map(e => `prefix part ${e}`));
  } else if (parts.length > 2) {
    return [
      `a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '${QUALIFIED_NAME}') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63)
    errs.push('name part must be no more than 63 characters');
  if (name.length > 0 && !qualifiedNameRe.test(name)) {
    errs.push(
      `name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '${QUALIFIED_NAME}')`,
    );
  }
  return errs;
}

function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!labelValueRe.test(value)) {
    errs.push(
      `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '${LABEL_VALUE}')`,
    );
  }
  return errs;
}

const invalid = (field: string, value: string, detail: string): FieldCause => ({
  reason: 'FieldValueInvalid',
  message: `Invalid value: ${q(value)}: ${detail}`,
  field,
});

/** apimachinery's path.IsValidPathSegmentName: the only rule for RBAC object names (`system:auth-delegator`). */
export function pathSegmentNameErrors(value: string): string[] {
  if (value === '.' || value === '..') return [`may not be '${value}'`];
  return ['/', '%']
    .filter(c => value.includes(c))
    .map(c => `may not contain '${c}'`);
}

/** True when `value` is a DNS-1123 label (namespace names, label-style names). */
export function isDns1123Label(value: string): boolean {
  return labelErrors(value).length === 0;
}

/**
 * Validates the user-settable parts of ObjectMeta: name (DNS-1123 subdomain, or label for
 * namespaces), label keys/values, annotation keys. Returns kube-style causes (empty when valid).
 */
export function validateMetadata(
  meta: Record<string, unknown>,
  opts: { nameIsLabel?: boolean; nameIsPathSegment?: boolean } = {},
): FieldCause[] {
  const causes: FieldCause[] = [];
  const name = meta.name;
  if (typeof name !== 'string' || name === '') {
    causes.push({
      reason: 'FieldValueRequired',
      message: 'Required value: name or generateName is required',
      field: 'metadata.name',
    });
  } else {
    let errs = subdomainErrors(name);
    if (opts.nameIsLabel) errs = labelErrors(name);
    if (opts.nameIsPathSegment) errs = pathSegmentNameErrors(name);
    for (const e of errs) causes.push(invalid('metadata.name', name, e));
  }
  const labels = meta.labels;
  if (labels !== undefined && labels !== null) {
    if (typeof labels !== 'object' || Array.isArray(labels)) {
      causes.push({
        reason: 'FieldValueTypeInvalid',
        message: 'Invalid value: must be a map of strings',
        field: 'metadata.labels',
      });
    } else {
      for (const [k, v] of Object.entries(labels as Record<string, unknown>)) {
        for (const e of qualifiedNameErrors(k))
          causes.push(invalid('metadata.labels', k, e));
        if (typeof v !== 'string') {
          causes.push(
            invalid(
              `metadata.labels`,
              String(v),
              'label values must be strings',
            ),
          );
        } else {
          for (const e of labelValueErrors(v))
            causes.push(invalid('metadata.labels', v, e));
        }
      }
    }
  }
  const annotations = meta.annotations;
  if (annotations !== undefined && annotations !== null) {
    if (typeof annotations !== 'object' || Array.isArray(annotations)) {
      causes.push({
        reason: 'FieldValueTypeInvalid',
        message: 'Invalid value: must be a map of strings',
        field: 'metadata.annotations',
      });
    } else {
      let total = 0;
      for (const [k, v] of Object.entries(
        annotations as Record<string, unknown>,
      )) {
        for (const e of qualifiedNameErrors(k.toLowerCase()))
          causes.push(invalid('metadata.annotations', k, e));
        if (typeof v !== 'string')
          causes.push(
            invalid(
              'metadata.annotations',
              String(v),
              'annotation values must be strings',
            ),
          );
        total += k.length + String(v).length;
      }
      // kube's TotalAnnotationSizeLimitB: why `kubectl apply` of some big CRDs fails on real clusters
      if (total > 256 * 1024) {
        causes.push({
          reason: 'FieldValueTooLong',
          message: 'Too long: must have at most 262144 bytes',
          field: 'metadata.annotations',
        });
      }
    }
  }
  return causes;
}
