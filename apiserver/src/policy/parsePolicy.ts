import Ajv, { type ErrorObject } from 'ajv';
import { parseDocument } from 'yaml';
import { parseQuantity } from '../writes/quantity';
import { POLICY_SCHEMA } from './policySchema';
import type { LabelSelector, Policy, PolicyLimits, PolicyRule } from './types';
import { parseVersionRange, type VersionRange } from './versionRange';

/** The ConfigMap key holding the policy. */
export const POLICY_KEY = 'policy.yaml';

/** A parsed policy, or every problem found, each naming its key (`rules[0].max.cpu: ...`). */
export type PolicyParseResult = { policy: Policy } | { errors: string[] };

const ajv = new Ajv({
  allErrors: true,
  strict: true,
  allowUnionTypes: true,
  // the offending value, for messages
  verbose: true,
});
const validate = ajv.compile(POLICY_SCHEMA);

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `/rules/0/namespaceSelector/matchLabels/app.kubernetes.io~1name` → `rules[0].namespaceSelector.matchLabels["app.kubernetes.io/name"]`. */
export function toPath(pointer: string, extra?: string): string {
  const segments = pointer
    .split('/')
    .slice(1)
    .map(s => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) segments.push(extra);
  let path = '';
  for (const s of segments) {
    if (/^\d+$/.test(s)) path += `[${s}]`;
    else if (IDENTIFIER.test(s)) path += path ? `.${s}` : s;
    else path += `[${JSON.stringify(s)}]`;
  }
  return path || '(document)';
}

/** One ajv error as `key: problem`, the key written as in the YAML (`rules[0].max.cpu`). */
export function describeAjvError(e: ErrorObject): string {
  const p = e.params as Record<string, any>;
  switch (e.keyword) {
    case 'additionalProperties':
      return `${toPath(e.instancePath, p.additionalProperty)}: unknown key`;
    case 'required':
      return `${toPath(e.instancePath, p.missingProperty)}: required`;
    case 'enum':
      return `${toPath(e.instancePath)}: ${JSON.stringify(
        e.data,
      )} is not one of ${(p.allowedValues as string[]).join(', ')}`;
    case 'type':
      return `${toPath(e.instancePath)}: must be ${String(p.type).replace(',', ' or ')}`;
    default:
      return `${toPath(e.instancePath)}: ${e.message}`;
  }
}

function quantity(value: unknown, path: string, errors: string[]) {
  const q = parseQuantity(value);
  if (!q)
    errors.push(
      `${path}: ${JSON.stringify(value)} is not a quantity (e.g. 500m, 4, 16Gi)`,
    );
  else if (q.nanos < 0n) errors.push(`${path}: must not be negative`);
  return q;
}

function checkSelector(
  selector: LabelSelector,
  path: string,
  errors: string[],
) {
  (selector.matchExpressions ?? []).forEach((e, i) => {
    const at = `${path}.matchExpressions[${i}].values`;
    const many = (e.values ?? []).length > 0;
    if ((e.operator === 'In' || e.operator === 'NotIn') && !many) {
      errors.push(`${at}: must be non-empty for operator ${e.operator}`);
    }
    if ((e.operator === 'Exists' || e.operator === 'DoesNotExist') && many) {
      errors.push(`${at}: must be empty for operator ${e.operator}`);
    }
  });
}

/** Turns a schema-valid raw rule into a typed rule, collecting the errors the schema cannot see. */
function toRule(raw: any, index: number, errors: string[]): PolicyRule {
  const at = `rules[${index}]`;
  const rule: PolicyRule = { name: raw.name };
  if (
    (raw.namespaces === undefined) ===
    (raw.namespaceSelector === undefined)
  ) {
    errors.push(
      `${at}: set exactly one of namespaces or namespaceSelector (namespaceSelector: {} selects every namespace)`,
    );
  }
  if (raw.namespaces) rule.namespaces = raw.namespaces;
  if (raw.namespaceSelector) {
    checkSelector(raw.namespaceSelector, `${at}.namespaceSelector`, errors);
    rule.namespaceSelector = raw.namespaceSelector;
  }
  if (raw.engines) rule.engines = raw.engines;
  if (raw.topologies) rule.topologies = raw.topologies;
  if (raw.versions) {
    const versions: Record<string, VersionRange> = {};
    for (const [engine, text] of Object.entries(
      raw.versions as Record<string, string>,
    )) {
      const parsed = parseVersionRange(text);
      if ('error' in parsed)
        errors.push(`${at}.versions.${engine}: ${parsed.error}`);
      else versions[engine] = parsed.range;
    }
    rule.versions = versions;
  }
  if (raw.max) {
    const max: PolicyLimits = {};
    for (const key of [
      'instances',
      'replicas',
      'replicasPerInstance',
    ] as const) {
      if (raw.max[key] !== undefined) max[key] = raw.max[key];
    }
    for (const key of ['cpu', 'memory', 'storage'] as const) {
      if (raw.max[key] !== undefined)
        max[key] = quantity(raw.max[key], `${at}.max.${key}`, errors);
    }
    rule.max = max;
  }
  return rule;
}

/**
 * Parses and validates the text of `policy.yaml` (format: docs/policy.md). Never throws: bad
 * YAML, unknown keys, wrong types, bad quantities or version ranges and duplicate rule names
 * all come back as errors naming the key.
 */
export function parsePolicy(text: string): PolicyParseResult {
  const doc = parseDocument(text);
  if (doc.errors.length) {
    return {
      errors: doc.errors.map(e => {
        const pos = e.linePos?.[0];
        const where = pos ? ` at line ${pos.line}, column ${pos.col}` : '';
        // The pretty message repeats the position and quotes the source after its first line.
        const what = e.message
          .split('\n')[0]
          .replace(/ at line \d+, column \d+:?$/, '');
        return `invalid YAML${where}: ${what}`;
      }),
    };
  }
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    return { errors: [`invalid YAML: ${(err as Error).message}`] };
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { errors: ['must be a mapping with the key "rules"'] };
  }
  if (!validate(raw)) {
    const errors = [...new Set((validate.errors ?? []).map(describeAjvError))];
    return { errors };
  }
  const errors: string[] = [];
  const rules = (raw as { rules: unknown[] }).rules.map((r, i) =>
    toRule(r, i, errors),
  );
  const seen = new Map<string, number>();
  rules.forEach((r, i) => {
    const first = seen.get(r.name);
    if (first !== undefined) {
      errors.push(
        `rules[${i}].name: duplicate rule name "${r.name}" (also rules[${first}])`,
      );
    } else seen.set(r.name, i);
  });
  return errors.length ? { errors } : { policy: { rules } };
}

/**
 * The policy of a ConfigMap's data: no ConfigMap (undefined) means no rules, a ConfigMap
 * without the `policy.yaml` key is an error (most likely a typo in the key).
 */
export function policyFromConfigMap(
  data: Record<string, string> | undefined,
): PolicyParseResult {
  if (data === undefined) return { policy: { rules: [] } };
  if (typeof data[POLICY_KEY] !== 'string') {
    const keys = Object.keys(data);
    return {
      errors: [
        `missing key ${POLICY_KEY}${keys.length ? ` (found: ${keys.join(', ')})` : ''}`,
      ],
    };
  }
  const result = parsePolicy(data[POLICY_KEY]);
  return 'errors' in result
    ? { errors: result.errors.map(e => `${POLICY_KEY}: ${e}`) }
    : result;
}
