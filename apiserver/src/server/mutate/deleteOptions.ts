import { DATABASES_GROUP_VERSION } from '@internal/plugin-databases-common';
import { queryBool, queryInt } from '../queryParams';
import { jsonTextDepth, MAX_NESTING_DEPTH, tooDeep } from '../nestingDepth';
import { badRequest, invalid, type StatusCause } from '../StatusError';
import { asText } from './decodeInstance';
import { dryRunCauses } from './writeOptions';

/** Decoded `metav1.DeleteOptions` (body, or query parameters when the body is empty). */
export interface DeleteOptions {
  dryRun: boolean;
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
  preconditions?: { uid?: string; resourceVersion?: string };
}

const API_VERSIONS = ['', 'v1', 'meta.k8s.io/v1', DATABASES_GROUP_VERSION];
const POLICIES = ['Foreground', 'Background', 'Orphan'];

/**
 * Parses DeleteOptions as kube-apiserver does (contract §6.10): any of the usual apiVersions
 * or none; an empty body falls back to query parameters; invalid combinations are a 422 of
 * `DeleteOptions.meta.k8s.io ""`. `gracePeriodSeconds` is accepted and ignored.
 */
export function parseDeleteOptions(body: Buffer | undefined, query: URLSearchParams): DeleteOptions {
  const text = body?.toString('utf8').trim() ?? '';
  let raw: Record<string, unknown>;
  if (text) {
    if (jsonTextDepth(text) > MAX_NESTING_DEPTH) throw tooDeep('the body of the request could not be decoded as DeleteOptions');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw badRequest(`the body of the request could not be decoded as DeleteOptions: ${(e as Error).message}`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw badRequest('the body of the request could not be decoded as DeleteOptions: not a JSON object');
    }
    raw = parsed as Record<string, unknown>;
    if (!API_VERSIONS.includes(asText(raw.apiVersion ?? '')) || !['', 'DeleteOptions'].includes(asText(raw.kind ?? ''))) {
      throw badRequest(`the body of the request was not a DeleteOptions: ${asText(raw.apiVersion ?? '')}, Kind=${asText(raw.kind ?? '')}`);
    }
  } else {
    queryInt(query, 'gracePeriodSeconds'); // a value that is not an integer is still a 400
    raw = {
      propagationPolicy: query.get('propagationPolicy') ?? undefined,
      orphanDependents: queryBool(query, 'orphanDependents'),
      dryRun: query.getAll('dryRun'),
    };
  }
  const causes: StatusCause[] = [];
  let dryRun: string[] = [];
  // asText, never String(): a value like {"toString":0} makes String() throw
  if (Array.isArray(raw.dryRun)) dryRun = raw.dryRun.map(v => asText(v));
  else if (raw.dryRun !== undefined) dryRun = [asText(raw.dryRun)];
  causes.push(...dryRunCauses(dryRun));
  const policy = raw.propagationPolicy === undefined || raw.propagationPolicy === null ? undefined : asText(raw.propagationPolicy);
  const orphan = raw.orphanDependents;
  if (policy !== undefined && !POLICIES.includes(policy)) {
    causes.push({
      reason: 'FieldValueNotSupported',
      field: 'propagationPolicy',
      message: `Unsupported value: ${JSON.stringify(policy)}: supported values: ${[...POLICIES, 'nil'].map(p => JSON.stringify(p)).join(', ')}`,
    });
  }
  if (policy !== undefined && orphan !== undefined && orphan !== null) {
    causes.push({
      reason: 'FieldValueInvalid',
      field: 'propagationPolicy',
      message: `Invalid value: ${JSON.stringify(policy)}: orphanDependents and deletionPropagation cannot be both set`,
    });
  }
  if (causes.length) throw invalid('DeleteOptions', 'meta.k8s.io', '', causes);
  const pre = raw.preconditions as { uid?: unknown; resourceVersion?: unknown } | undefined;
  let propagationPolicy = policy as DeleteOptions['propagationPolicy'];
  if (!propagationPolicy && typeof orphan === 'boolean') propagationPolicy = orphan ? 'Orphan' : 'Background';
  return {
    dryRun: dryRun.length > 0,
    ...(propagationPolicy ? { propagationPolicy } : {}),
    ...(pre && typeof pre === 'object'
      ? {
          preconditions: {
            ...(typeof pre.uid === 'string' ? { uid: pre.uid } : {}),
            ...(typeof pre.resourceVersion === 'string' ? { resourceVersion: pre.resourceVersion } : {}),
          },
        }
      : {}),
  };
}
