import type { FieldCause } from './storeErrors';
import type { ResourceDefinition } from './types';
import { pathSegmentNameErrors } from './validateMetadata';

// The create and update validation of pkg/apis/rbac/validation and the v1 defaults
// (pkg/apis/rbac/v1/defaults.go), with kube's field paths and wording. Escalation checks (a
// user may only grant what they hold, or needs `bind`/`escalate`) are not emulated: only
// admins and tests write RBAC objects here.

const RBAC_GROUP = 'rbac.authorization.k8s.io';
const DNS1123_SUBDOMAIN =
  /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

type Obj = Record<string, any>;

/** True for the four rbac.authorization.k8s.io kinds. */
export function isRbacResource(
  def: Pick<ResourceDefinition, 'group'>,
): boolean {
  return def.group === RBAC_GROUP;
}

const q = (v: unknown) => JSON.stringify(v);
// field.Invalid prints values that are neither strings nor numbers with Go's %#v
const goStrings = (v: string[]) => `[]string{${v.map(q).join(', ')}}`;
const goRoleRef = (r: Obj) =>
  `rbac.RoleRef{APIGroup:${q(r.apiGroup ?? '')}, Kind:${q(r.kind ?? '')}, Name:${q(r.name ?? '')}}`;
const required = (field: string, detail = ''): FieldCause => ({
  reason: 'FieldValueRequired',
  message: detail ? `Required value: ${detail}` : 'Required value',
  field,
});
function goValue(value: string | string[] | Obj): string {
  if (typeof value === 'string') return q(value);
  return Array.isArray(value) ? goStrings(value) : goRoleRef(value);
}
const invalid = (
  field: string,
  value: string | string[] | Obj,
  detail: string,
): FieldCause => ({
  reason: 'FieldValueInvalid',
  message: `Invalid value: ${goValue(value)}: ${detail}`,
  field,
});
const notSupported = (
  field: string,
  value: unknown,
  allowed: string[],
): FieldCause => ({
  reason: 'FieldValueNotSupported',
  message: `Unsupported value: ${q(value)}: supported values: ${allowed.map(a => q(a)).join(', ')}`,
  field,
});

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function stringList(v: unknown, field: string, causes: FieldCause[]): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some(x => typeof x !== 'string')) {
    causes.push({
      reason: 'FieldValueTypeInvalid',
      message: 'Invalid value: must be a list of strings',
      field,
    });
    return [];
  }
  return v;
}

function ruleCauses(
  rule: unknown,
  namespaced: boolean,
  at: string,
): FieldCause[] {
  const causes: FieldCause[] = [];
  const r: Obj = typeof rule === 'object' && rule !== null ? rule : {};
  const verbs = stringList(r.verbs, `${at}.verbs`, causes);
  const urls = stringList(r.nonResourceURLs, `${at}.nonResourceURLs`, causes);
  const groups = stringList(r.apiGroups, `${at}.apiGroups`, causes);
  const resources = stringList(r.resources, `${at}.resources`, causes);
  const names = stringList(r.resourceNames, `${at}.resourceNames`, causes);
  if (verbs.length === 0)
    causes.push(
      required(`${at}.verbs`, 'verbs must contain at least one value'),
    );
  if (urls.length > 0) {
    if (namespaced)
      causes.push(
        invalid(
          `${at}.nonResourceURLs`,
          urls,
          'namespaced rules cannot apply to non-resource URLs',
        ),
      );
    if (groups.length || resources.length || names.length)
      causes.push(
        invalid(
          `${at}.nonResourceURLs`,
          urls,
          'rules cannot apply to both regular resources and non-resource URLs',
        ),
      );
    return causes;
  }
  if (groups.length === 0)
    causes.push(
      required(
        `${at}.apiGroups`,
        'resource rules must supply at least one api group',
      ),
    );
  if (resources.length === 0)
    causes.push(
      required(
        `${at}.resources`,
        'resource rules must supply at least one resource',
      ),
    );
  return causes;
}

function selectorCauses(selector: unknown, at: string): FieldCause[] {
  const s: Obj =
    typeof selector === 'object' && selector !== null ? selector : {};
  return list(s.matchExpressions).flatMap((e: any, i): FieldCause[] => {
    const op = e?.operator;
    const values = list(e?.values);
    const field = `${at}.matchExpressions[${i}]`;
    if (op === 'In' || op === 'NotIn')
      return values.length
        ? []
        : [
            required(
              `${field}.values`,
              "must be specified when `operator` is 'In' or 'NotIn'",
            ),
          ];
    if (op === 'Exists' || op === 'DoesNotExist')
      return values.length
        ? [
            {
              reason: 'FieldValueForbidden',
              message:
                "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
              field: `${field}.values`,
            },
          ]
        : [];
    return [
      notSupported(`${field}.operator`, op, [
        'In',
        'NotIn',
        'Exists',
        'DoesNotExist',
      ]),
    ];
  });
}

function subjectCauses(
  subject: unknown,
  namespaced: boolean,
  at: string,
): FieldCause[] {
  const s: Obj = typeof subject === 'object' && subject !== null ? subject : {};
  const causes: FieldCause[] = [];
  const name = typeof s.name === 'string' ? s.name : '';
  const apiGroup = typeof s.apiGroup === 'string' ? s.apiGroup : '';
  if (!name) causes.push(required(`${at}.name`));
  switch (s.kind) {
    case 'ServiceAccount':
      if (name && !DNS1123_SUBDOMAIN.test(name))
        causes.push(
          invalid(
            `${at}.name`,
            name,
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
          ),
        );
      if (apiGroup) causes.push(notSupported(`${at}.apiGroup`, apiGroup, ['']));
      if (!namespaced && !s.namespace) causes.push(required(`${at}.namespace`));
      break;
    case 'User':
    case 'Group':
      if (!name)
        causes.push(
          invalid(
            `${at}.name`,
            name,
            `${s.kind === 'User' ? 'user' : 'group'} name cannot be empty`,
          ),
        );
      if (apiGroup !== RBAC_GROUP)
        causes.push(notSupported(`${at}.apiGroup`, apiGroup, [RBAC_GROUP]));
      break;
    default:
      causes.push(
        notSupported(`${at}.kind`, s.kind ?? '', [
          'ServiceAccount',
          'User',
          'Group',
        ]),
      );
  }
  return causes;
}

function roleRefCauses(ref: Obj, clusterBinding: boolean): FieldCause[] {
  const causes: FieldCause[] = [];
  if (ref.apiGroup !== RBAC_GROUP)
    causes.push(
      notSupported('roleRef.apiGroup', ref.apiGroup ?? '', [RBAC_GROUP]),
    );
  const kinds = clusterBinding ? ['ClusterRole'] : ['Role', 'ClusterRole'];
  if (!kinds.includes(ref.kind))
    causes.push(notSupported('roleRef.kind', ref.kind ?? '', kinds));
  if (typeof ref.name !== 'string' || ref.name === '')
    causes.push(required('roleRef.name'));
  else
    for (const msg of pathSegmentNameErrors(ref.name))
      causes.push(invalid('roleRef.name', ref.name, msg));
  return causes;
}

/** The v1 defaults: roleRef.apiGroup, and each subject's apiGroup by kind. */
export function defaultRbacObject(def: ResourceDefinition, obj: Obj): void {
  if (!isRbacResource(def) || !def.plural.endsWith('bindings')) return;
  if (
    typeof obj.roleRef === 'object' &&
    obj.roleRef !== null &&
    !obj.roleRef.apiGroup
  )
    obj.roleRef.apiGroup = RBAC_GROUP;
  for (const s of list(obj.subjects) as Obj[]) {
    if (typeof s !== 'object' || s === null || s.apiGroup) continue;
    if (s.kind === 'ServiceAccount') s.apiGroup = '';
    else if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = RBAC_GROUP;
  }
}

/**
 * The causes kube-apiserver's RBAC validation reports for `obj` (and, on update, for changing
 * a binding's roleRef, which is immutable). Empty when valid. Names are path segments, not DNS names.
 */
export function rbacObjectCauses(
  def: ResourceDefinition,
  obj: Obj,
  old?: Obj,
): FieldCause[] {
  if (!isRbacResource(def)) return [];
  const causes: FieldCause[] = [];
  if (def.plural === 'clusterroles' || def.plural === 'roles') {
    list(obj.rules).forEach((r, i) =>
      causes.push(...ruleCauses(r, def.namespaced, `rules[${i}]`)),
    );
    const aggregation = obj.aggregationRule;
    if (
      def.plural === 'clusterroles' &&
      aggregation !== undefined &&
      aggregation !== null
    ) {
      const selectors = list(aggregation.clusterRoleSelectors);
      if (selectors.length === 0)
        causes.push(
          required(
            'aggregationRule.clusterRoleSelectors',
            'at least one clusterRoleSelector required if aggregationRule is non-nil',
          ),
        );
      selectors.forEach((s, i) =>
        causes.push(
          ...selectorCauses(s, `aggregationRule.clusterRoleSelectors[${i}]`),
        ),
      );
    }
    return causes;
  }
  const ref: Obj =
    typeof obj.roleRef === 'object' && obj.roleRef !== null ? obj.roleRef : {};
  causes.push(...roleRefCauses(ref, def.plural === 'clusterrolebindings'));
  list(obj.subjects).forEach((s, i) =>
    causes.push(...subjectCauses(s, def.namespaced, `subjects[${i}]`)),
  );
  if (old) {
    const before: Obj = old.roleRef ?? {};
    if (
      before.apiGroup !== ref.apiGroup ||
      before.kind !== ref.kind ||
      before.name !== ref.name
    )
      causes.push(invalid('roleRef', ref, 'cannot change roleRef'));
  }
  return causes;
}
