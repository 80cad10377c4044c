import { StoreError } from '../store/types';

/** One `field=value`, `field==value` or `field!=value` term. */
export interface FieldRequirement {
  field: string;
  operator: '=' | '!=';
  value: string;
}

/** Parses a field selector (comma = AND). Throws StoreError 400 on syntax errors. */
export function parseFieldSelector(selector: string): FieldRequirement[] {
  if (!selector.trim()) return [];
  return splitTerms(selector).map(term => {
    const m = /^([^=!]*?)(==|!=|=)(.*)$/.exec(term);
    if (!m || !m[1].trim()) {
      throw new StoreError(
        400,
        'BadRequest',
        `invalid selector: '${selector}'; can't understand '${term}'`,
      );
    }
    return {
      field: m[1].trim(),
      operator: m[2] === '!=' ? '!=' : '=',
      value: unescape(m[3].trim()),
    };
  });
}

/** Splits on commas not escaped with a backslash (fields.ParseSelector escaping). */
function splitTerms(selector: string): string[] {
  const terms: string[] = [];
  let cur = '';
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (c === '\\' && i + 1 < selector.length) {
      cur += c + selector[++i];
    } else if (c === ',') {
      terms.push(cur);
      cur = '';
    } else cur += c;
  }
  terms.push(cur);
  return terms.filter(t => t.trim() !== '');
}

function unescape(v: string): string {
  return v.replace(/\\(.)/g, '$1');
}

/** The value a `fieldSelector` requires for `field` with `=`/`==`, if any (RequiresExactMatch). */
export function requiredFieldValue(
  reqs: FieldRequirement[],
  field: string,
): string | undefined {
  return reqs.find(r => r.field === field && r.operator === '=')?.value;
}

const COMMON_FIELDS = ['metadata.name', 'metadata.namespace'];

/** Fields kube-apiserver supports for a resource beyond metadata.name/namespace. */
const EXTRA_FIELDS: Record<string, string[]> = {
  '/secrets': ['type'],
  '/namespaces': ['status.phase'],
  // JobToSelectableFields (pkg/registry/batch/job/strategy.go); CronJobs have none of their own
  'batch/jobs': ['status.successful'],
  '/events': [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
  ],
};

/**
 * Checks every field is supported for the resource; otherwise the 400 kube-apiserver gives
 * (`"x" is not a known field selector: only "metadata.name", "metadata.namespace"`).
 */
export function checkFieldSelector(
  reqs: FieldRequirement[],
  resource: { group: string; plural: string },
): void {
  const extra = EXTRA_FIELDS[`${resource.group}/${resource.plural}`] ?? [];
  for (const r of reqs) {
    if (COMMON_FIELDS.includes(r.field) || extra.includes(r.field)) continue;
    const allowed = extra.length
      ? `field label not supported: ${r.field}`
      : `"${r.field}" is not a known field selector: only "metadata.name", "metadata.namespace"`;
    throw new StoreError(400, 'BadRequest', allowed);
  }
}

function fieldValue(obj: Record<string, any>, field: string): string {
  let cur: any = obj;
  for (const part of field.split('.')) cur = cur?.[part];
  if (field === 'metadata.namespace' && cur === undefined) return '';
  // strconv.Itoa(int(job.Status.Succeeded)): an absent count is 0
  if (field === 'status.successful') return String(obj.status?.succeeded ?? 0);
  if (field === 'source' && cur && typeof cur === 'object')
    return String(cur.component ?? '');
  return cur === undefined || cur === null ? '' : String(cur);
}

/** True when the object satisfies every requirement. */
export function matchesFields(
  reqs: FieldRequirement[],
  obj: Record<string, any>,
): boolean {
  return reqs.every(
    r => (fieldValue(obj, r.field) === r.value) === (r.operator === '='),
  );
}
