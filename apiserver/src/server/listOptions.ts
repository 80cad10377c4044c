import type { StatusCause } from './StatusError';
import { badRequest, invalidListOptions } from './StatusError';
import { parseFieldSelector, validateFieldSelector, type FieldRequirement } from './fieldSelector';
import { parseLabelSelector, type LabelRequirement } from './labelSelector';
import { queryBool, queryInt } from './queryParams';
import type { IncludeObject } from '../table/buildTable';

/** Decoded `metav1.ListOptions` of a list or watch request (contract §6.5, §6.16, §7.1). */
export interface ListOptions {
  watch: boolean;
  labelSelector: LabelRequirement[];
  fieldSelector: FieldRequirement[];
  /** Page size; undefined or ≤ 0 = everything. */
  limit?: number;
  continueToken?: string;
  /** Raw resourceVersion; '' is treated as unset. */
  resourceVersion?: string;
  resourceVersionMatch?: string;
  /** Set (true or false) when the parameter is present at all. */
  sendInitialEvents?: boolean;
  allowWatchBookmarks: boolean;
  timeoutSeconds?: number;
}

const forbiddenCause = (field: string, detail: string): StatusCause => ({
  reason: 'FieldValueForbidden',
  message: `Forbidden: ${detail}`,
  field,
});
const unsupportedCause = (field: string, value: string, supported: string[]): StatusCause => ({
  reason: 'FieldValueNotSupported',
  message: `Unsupported value: "${value}": supported values: ${supported.map(s => `"${s}"`).join(', ')}`,
  field,
});

/** apimachinery `ValidateListOptions` / `validateWatchOptions`, the WatchList feature enabled. */
export function validateListOptions(o: ListOptions): StatusCause[] {
  const causes: StatusCause[] = [];
  const match = o.resourceVersionMatch;
  if (o.watch) {
    if (o.sendInitialEvents !== undefined && match !== 'NotOlderThan') {
      causes.push(
        forbiddenCause('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'),
      );
    }
    if (match) {
      if (o.sendInitialEvents === undefined) {
        causes.push(
          forbiddenCause('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'),
        );
      }
      if (match !== 'NotOlderThan') causes.push(unsupportedCause('resourceVersionMatch', match, ['NotOlderThan']));
      if (o.continueToken) {
        causes.push(forbiddenCause('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
      }
    }
    return causes;
  }
  if (match) {
    if (!o.resourceVersion) {
      causes.push(forbiddenCause('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    }
    if (o.continueToken) {
      causes.push(forbiddenCause('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    }
    if (match !== 'Exact' && match !== 'NotOlderThan') {
      causes.push(unsupportedCause('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
    }
    if (match === 'Exact' && o.resourceVersion === '0') {
      causes.push(forbiddenCause('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    }
  }
  if (o.sendInitialEvents !== undefined) {
    causes.push(forbiddenCause('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  }
  return causes;
}

/**
 * Decodes and validates list/watch query parameters: malformed values (integers, selectors,
 * unknown field selectors) are 400, invalid combinations 422 `ListOptions.meta.k8s.io "" is invalid`.
 * `forceWatch` is set for the deprecated `/watch/` path form.
 */
export function parseListOptions(
  query: URLSearchParams,
  supportedFields: readonly string[],
  forceWatch = false,
): ListOptions {
  const fieldSelector = parseFieldSelector(query.get('fieldSelector') ?? '');
  validateFieldSelector(fieldSelector, supportedFields);
  const opts: ListOptions = {
    watch: forceWatch || (queryBool(query, 'watch') ?? false),
    labelSelector: parseLabelSelector(query.get('labelSelector') ?? ''),
    fieldSelector,
    limit: queryInt(query, 'limit'),
    continueToken: query.get('continue') || undefined,
    resourceVersion: query.get('resourceVersion') || undefined,
    resourceVersionMatch: query.get('resourceVersionMatch') || undefined,
    sendInitialEvents: queryBool(query, 'sendInitialEvents'),
    allowWatchBookmarks: queryBool(query, 'allowWatchBookmarks') ?? false,
    timeoutSeconds: queryInt(query, 'timeoutSeconds'),
  };
  const causes = validateListOptions(opts);
  if (causes.length) throw invalidListOptions(causes);
  return opts;
}

/** `includeObject` of a Table request; other values are the 400 kube-apiserver gives. */
export function parseIncludeObject(query: URLSearchParams): IncludeObject {
  const v = query.get('includeObject') ?? '';
  if (v === '' || v === 'Metadata') return 'Metadata';
  if (v === 'Object' || v === 'None') return v;
  throw badRequest(
    `Unable to convert to Table as requested: includeObject: Invalid value: "${v}": must be 'Metadata', 'Object', 'None', or empty`,
  );
}
