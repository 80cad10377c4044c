import { StoreError } from '../store/types';
import {
  checkFieldSelector,
  type FieldRequirement,
  parseFieldSelector,
} from './fieldSelector';
import { type LabelRequirement, parseLabelSelector } from './labelSelector';
import { queryBool } from './queryBool';
import { errors } from './status';

/** Decoded and validated `metav1.ListOptions` (contract §6.5, §7.1). */
export interface ListOptions {
  labelSelector: LabelRequirement[];
  fieldSelector: FieldRequirement[];
  /** undefined when the parameter is absent ("" counts as absent, as in kube). */
  resourceVersion?: string;
  resourceVersionMatch?: 'NotOlderThan' | 'Exact';
  limit?: number;
  continueToken?: string;
  watch: boolean;
  allowWatchBookmarks: boolean;
  /** undefined when absent; a present `false` still counts as set. */
  sendInitialEvents?: boolean;
  timeoutSeconds?: number;
}

const forbidden = (field: string, detail: string) =>
  errors.invalidOptions(
    'ListOptions',
    field,
    'FieldValueForbidden',
    `Forbidden: ${detail}`,
  );

function int(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^-?\d+$/.test(raw))
    throw errors.badRequest(
      `invalid value for ${name}: ${JSON.stringify(raw)}: strconv.ParseInt: parsing ${JSON.stringify(raw)}: invalid syntax`,
    );
  return Number(raw);
}

/** Parses list/watch query parameters; errors are the 400/422 Statuses kube-apiserver returns. */
export function parseListOptions(
  query: URLSearchParams,
  resource: { group: string; plural: string },
  isWatch: boolean,
): ListOptions {
  const labelSelector = parseLabelSelector(query.get('labelSelector') ?? '');
  const fieldSelector = parseFieldSelector(query.get('fieldSelector') ?? '');
  checkFieldSelector(fieldSelector, resource);
  const rv = query.get('resourceVersion') || undefined;
  if (rv !== undefined && !/^\d+$/.test(rv)) {
    throw new StoreError(
      400,
      'BadRequest',
      `invalid resource version: ${JSON.stringify(rv)}`,
    );
  }
  const matchRaw = query.get('resourceVersionMatch') || undefined;
  const sendRaw = query.get('sendInitialEvents');
  const sendInitialEvents = sendRaw === null ? undefined : queryBool(sendRaw);
  const continueToken = query.get('continue') || undefined;
  const opts: ListOptions = {
    labelSelector,
    fieldSelector,
    resourceVersion: rv,
    limit: int(query, 'limit'),
    continueToken,
    watch: isWatch,
    allowWatchBookmarks: queryBool(query.get('allowWatchBookmarks')),
    sendInitialEvents,
    timeoutSeconds: int(query, 'timeoutSeconds'),
  };
  if (matchRaw !== undefined) {
    if (matchRaw !== 'NotOlderThan' && matchRaw !== 'Exact') {
      throw errors.invalidOptions(
        'ListOptions',
        'resourceVersionMatch',
        'FieldValueNotSupported',
        `Unsupported value: ${JSON.stringify(matchRaw)}: supported values: "Exact", "NotOlderThan"`,
      );
    }
    opts.resourceVersionMatch = matchRaw;
  }
  if (isWatch) {
    if (sendInitialEvents !== undefined) {
      if (opts.resourceVersionMatch !== 'NotOlderThan') {
        throw forbidden(
          'resourceVersionMatch',
          'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
        );
      }
    } else if (opts.resourceVersionMatch !== undefined) {
      throw forbidden(
        'resourceVersionMatch',
        'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
      );
    }
    return opts;
  }
  if (sendInitialEvents !== undefined)
    throw forbidden(
      'sendInitialEvents',
      'sendInitialEvents is forbidden for list',
    );
  if (opts.resourceVersionMatch) {
    if (rv === undefined)
      throw forbidden(
        'resourceVersionMatch',
        'resourceVersionMatch is forbidden unless resourceVersion is provided',
      );
    if (continueToken)
      throw forbidden(
        'resourceVersionMatch',
        'resourceVersionMatch is forbidden when continue is provided',
      );
    if (opts.resourceVersionMatch === 'Exact' && rv === '0') {
      throw forbidden(
        'resourceVersionMatch',
        'resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
      );
    }
  }
  if (continueToken && rv !== undefined && rv !== '0') {
    throw errors.badRequest(
      'specifying resource version is not allowed when using continue',
    );
  }
  return opts;
}

/** The position a continue token resumes from: the snapshot RV and the last key served. */
export interface ContinuePosition {
  rv: number;
  start: string;
}

/** Encodes a continue token (same shape as kube's: base64 JSON with v/rv/start). */
export function encodeContinue(pos: ContinuePosition): string {
  return Buffer.from(
    JSON.stringify({ v: 'meta.k8s.io/v1', rv: pos.rv, start: pos.start }),
  ).toString('base64url');
}

/** Decodes a continue token; malformed ⇒ 400 `invalid continue token`. */
export function decodeContinue(token: string): ContinuePosition {
  try {
    const raw = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (
      raw?.v !== 'meta.k8s.io/v1' ||
      typeof raw.rv !== 'number' ||
      typeof raw.start !== 'string'
    )
      throw new Error('bad');
    return { rv: raw.rv, start: raw.start };
  } catch {
    throw errors.badRequest(`invalid continue token: ${token}`);
  }
}
