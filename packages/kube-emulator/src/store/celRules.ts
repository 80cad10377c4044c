import { compileRule, celErrorText } from './celProgram';
import { OPTIONAL_OLD_SELF } from './celCompileCauses';
import { toCelValue } from './celValue';
import type { FieldCause } from './storeErrors';

/**
 * The `x-kubernetes-validations` rules of a structural schema, evaluated as kube-apiserver's
 * CEL validator does (k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/validation.go):
 * every rule on every value present, `self` bound to the value; a transition rule (one that
 * reads `oldSelf`) only where the old object has a value it correlates with (object fields, map
 * entries, items of `x-kubernetes-list-type: map` lists by their keys). A rule with
 * `optionalOldSelf` refuses the object (fail closed): it needs CEL optionals, which the library
 * lacks. Failures are worded as kube words them.
 */

type Schema = Record<string, any>;

interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

const isObj = (v: unknown): v is Record<string, any> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const ABSENT = Symbol('absent');
type Old = unknown | typeof ABSENT;

/** Evaluates every rule on `obj` (and `old`, on an update); returns the failures as causes. */
export function validateCelRules(
  schema: unknown,
  obj: unknown,
  old?: unknown,
): FieldCause[] {
  const causes: FieldCause[] = [];
  walk(
    isObj(schema) ? schema : {},
    obj,
    old === undefined ? ABSENT : old,
    '',
    true,
    causes,
  );
  return causes;
}

/** True when the schema (or any schema below it) carries CEL rules, so walking can be skipped. */
export function hasCelRules(schema: unknown): boolean {
  return JSON.stringify(schema ?? {}).includes('"x-kubernetes-validations"');
}

function walk(
  schema: Schema,
  value: unknown,
  old: Old,
  path: string,
  isRoot: boolean,
  causes: FieldCause[],
): void {
  if (value === undefined) return;
  const rules: ValidationRule[] = Array.isArray(
    schema['x-kubernetes-validations'],
  )
    ? schema['x-kubernetes-validations']
    : [];
  for (const rule of rules)
    evaluate(rule, schema, value, old, path, isRoot, causes);
  if (value === null) return;
  if (Array.isArray(value)) {
    const items = isObj(schema.items) ? schema.items : undefined;
    if (!items) return;
    const oldItem = listCorrelation(schema, items, old);
    value.forEach((item, i) =>
      walk(items, item, oldItem(item), `${path}[${i}]`, false, causes),
    );
    return;
  }
  if (!isObj(value)) return;
  const properties: Record<string, Schema> = isObj(schema.properties)
    ? schema.properties
    : {};
  const additional = isObj(schema.additionalProperties)
    ? schema.additionalProperties
    : undefined;
  for (const [key, child] of Object.entries(value)) {
    if (isRoot && key === 'metadata') continue;
    const sub = properties[key] ?? additional;
    if (!sub) continue;
    const childPath = properties[key]
      ? `${path ? `${path}.` : ''}${key}`
      : `${path}[${key}]`;
    const oldChild = isObj(old) && key in old ? old[key] : ABSENT;
    walk(sub, child, oldChild, childPath, false, causes);
  }
}

/** Old items correlate only in map lists, by their keys; atomic lists and sets do not correlate. */
function listCorrelation(
  schema: Schema,
  items: Schema,
  old: Old,
): (item: unknown) => Old {
  const keys: string[] = Array.isArray(schema['x-kubernetes-list-map-keys'])
    ? schema['x-kubernetes-list-map-keys']
    : [];
  if (schema['x-kubernetes-list-type'] !== 'map' || !Array.isArray(old))
    return () => ABSENT;
  const keyOf = (item: unknown) =>
    JSON.stringify(
      keys.map(k =>
        isObj(item) ? (item[k] ?? items.properties?.[k]?.default) : undefined,
      ),
    );
  const byKey = new Map(old.map(item => [keyOf(item), item]));
  return item => (byKey.has(keyOf(item)) ? byKey.get(keyOf(item)) : ABSENT);
}

function evaluate(
  rule: ValidationRule,
  schema: Schema,
  value: unknown,
  old: Old,
  path: string,
  isRoot: boolean,
  causes: FieldCause[],
): void {
  const compiled = compileRule(rule.rule);
  const type = typeof schema.type === 'string' ? schema.type : '';
  const ruleText = rule.rule.trim();
  if ('error' in compiled) {
    // A CRD with a rule that does not compile is refused when written; reaching here means it
    // was stored before that check existed, so the object is refused rather than let through.
    causes.push(invalid(path, type, `compilation failed: ${compiled.error}`));
    return;
  }
  if (rule.optionalOldSelf) {
    causes.push(invalid(path, type, OPTIONAL_OLD_SELF));
    return;
  }
  if (compiled.usesOldSelf && old === ABSENT) return;
  const self = toCelValue(value, schema, isRoot);
  const oldSelf = old === ABSENT ? null : toCelValue(old, schema, isRoot);
  const result = compiled.program({ self, oldSelf });
  const error = celErrorText(result);
  if (error !== undefined) {
    causes.push(invalid(path, type, `${error} evaluating rule: ${ruleText}`));
    return;
  }
  if (result === true) return;
  const field = rule.fieldPath ? joinFieldPath(path, rule.fieldPath) : path;
  const detail =
    messageOf(rule, self, oldSelf) ??
    (rule.message?.trim() || `failed rule: ${ruleText}`);
  causes.push(forReason(rule.reason, field, type, detail));
}

function messageOf(
  rule: ValidationRule,
  self: unknown,
  oldSelf: unknown,
): string | undefined {
  if (!rule.messageExpression) return undefined;
  const compiled = compileRule(rule.messageExpression);
  if ('error' in compiled) return undefined;
  const result = compiled.program({ self, oldSelf });
  return typeof result === 'string' && result.trim() && !result.includes('\n')
    ? result
    : undefined;
}

/** `fieldPath` is a relative JSON path (`.a.b`, `['x.y']`), joined to the rule's location. */
function joinFieldPath(path: string, fieldPath: string): string {
  const rel = fieldPath.replace(/\['([^']*)'\]/g, '.$1').replace(/^\./, '');
  return path ? `${path}.${rel}` : rel;
}

function invalid(field: string, type: string, detail: string): FieldCause {
  return {
    reason: 'FieldValueInvalid',
    message: `Invalid value: ${JSON.stringify(type)}: ${detail}`,
    field,
  };
}

/** kube's fieldErrorForReason: the rule's `reason` picks the field error type. */
function forReason(
  reason: string | undefined,
  field: string,
  type: string,
  detail: string,
): FieldCause {
  switch (reason) {
    case 'FieldValueForbidden':
      return { reason, message: `Forbidden: ${detail}`, field };
    case 'FieldValueRequired':
      return { reason, message: `Required value: ${detail}`, field };
    case 'FieldValueDuplicate':
      return {
        reason,
        message: `Duplicate value: ${JSON.stringify(type)}`,
        field,
      };
    default:
      return invalid(field, type, detail);
  }
}
