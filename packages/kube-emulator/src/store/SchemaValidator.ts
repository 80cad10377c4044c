import { createHash } from 'node:crypto';
import path from 'node:path';
import type Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import {
  pruneUnknownFields,
  replaceNonNullableNulls,
  toAjvSchema,
} from './structuralSchema';
import { hasCelRules, validateCelRules } from './celRules';
import { listTypeCauses } from './listTypeCauses';
import { KUBE_AJV_FORMATS } from './kubeFormats';
import { StandaloneValidators } from './standaloneValidators';
import { createKubeAjv } from './kubeAjv';
import type { FieldCause } from './storeErrors';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null;

/**
 * What a validator's code depends on besides its schema: ajv's version, the layout of the cache
 * and which formats are checked (an ignored format emits no check).
 */
const BUILT_BY = StandaloneValidators.buildKey(
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('ajv/package.json').version,
  Object.entries(KUBE_AJV_FORMATS).map(([name, f]) => (f === true ? `${name}:ignored` : name)),
);

/**
 * Where compiled validators are kept: $KUBE_EMULATOR_CACHE_DIR (empty: nowhere), else beside the
 * installed packages, as other tools' caches are (node_modules/.cache).
 */
function validatorCacheDir(): string | undefined {
  const configured = process.env.KUBE_EMULATOR_CACHE_DIR;
  if (configured !== undefined) return configured || undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return path.join(path.dirname(require.resolve('ajv/package.json')), '..', '.cache', 'kube-emulator', 'validators');
}

/** Outcome of validating one object against a CRD version schema. */
export interface SchemaValidationResult {
  causes: FieldCause[];
  /** Paths of the unknown fields that were pruned (kube reports them as warnings). */
  pruned: string[];
}

/**
 * Validates CRD objects against their openAPIV3Schema the way kube-apiserver does: defaults are
 * applied, unknown fields pruned, then the object is validated. Validators are compiled lazily
 * and cached by schema hash, so registering many big upstream CRDs stays cheap and a CRD update
 * that does not touch a schema does not recompile it.
 */
export class SchemaValidator {
  // Shared by every store in the process: compiling the big upstream CRDs costs up to ~1 s each.
  private static ajv: Ajv | undefined;
  private static readonly compiled = new Map<string, ValidateFunction>();
  /** By the schema object itself: hashing a big schema on every write cost more than validating. */
  private static readonly bySchema = new WeakMap<object, ValidateFunction>();
  private static readonly onDisk = new StandaloneValidators(
    validatorCacheDir(),
    KUBE_AJV_FORMATS,
    // the runtime helpers the code requires (ajv/dist/runtime/*), resolved from here
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    id => require(id),
  );

  private get ajv(): Ajv {
    SchemaValidator.ajv ??= createKubeAjv();
    return SchemaValidator.ajv;
  }

  /**
   * Prunes and defaults `obj` in place, then validates it as kube-apiserver does: the OpenAPI
   * schema, list types, then the CEL rules (with `old` as `oldSelf` on an update). As in
   * kube-apiserver, CEL rules are not run on an object with type errors.
   */
  validate(
    schema: unknown,
    obj: Record<string, unknown>,
    old?: Record<string, unknown>,
  ): SchemaValidationResult {
    const pruned = pruneUnknownFields(obj, schema);
    replaceNonNullableNulls(obj, schema);
    const fn = this.compile(schema);
    const causes = fn(obj) ? [] : ajvErrorsToCauses(fn.errors ?? [], obj);
    causes.push(...listTypeCauses(schema, obj));
    if (!this.hasRules(schema)) return { causes, pruned };
    if (causes.some(c => c.reason === 'FieldValueTypeInvalid')) {
      causes.push({
        reason: 'FieldValueInvalid',
        message:
          'Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
        field: '<nil>',
      });
      return { causes, pruned };
    }
    causes.push(...validateCelRules(schema, obj, old));
    return { causes, pruned };
  }

  private static readonly withRules = new WeakMap<object, boolean>();

  private hasRules(schema: unknown): boolean {
    if (typeof schema !== 'object' || schema === null) return false;
    let has = SchemaValidator.withRules.get(schema);
    if (has === undefined) {
      has = hasCelRules(schema);
      SchemaValidator.withRules.set(schema, has);
    }
    return has;
  }

  /** Compiles (or fetches from a cache) the validator of a schema. */
  compile(schema: unknown): ValidateFunction {
    const known = isObject(schema) ? SchemaValidator.bySchema.get(schema) : undefined;
    if (known) return known;
    const ajvSchema = toAjvSchema(schema ?? {}) as object;
    const key = createHash('sha256')
      .update(BUILT_BY)
      .update(JSON.stringify(ajvSchema))
      .digest('hex');
    let fn = SchemaValidator.compiled.get(key) ?? SchemaValidator.onDisk.get(key);
    if (!fn) {
      fn = this.ajv.compile(ajvSchema);
      SchemaValidator.onDisk.put(key, this.ajv, fn);
    }
    SchemaValidator.compiled.set(key, fn);
    if (isObject(schema)) SchemaValidator.bySchema.set(schema, fn);
    return fn;
  }
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Kube renders an invalid value as JSON for scalars and as its type name for composites. */
function renderValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null)
    return String(v);
  return JSON.stringify(typeName(v));
}

/** `/spec/items/0/name` → `spec.items[0].name`, using the data to tell array indices from map keys. */
export function instancePathToField(
  instancePath: string,
  data: unknown,
): string {
  if (!instancePath) return '';
  let out = '';
  let cur: unknown = data;
  for (const raw of instancePath.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur)) {
      out += `[${seg}]`;
      cur = cur[Number(seg)];
    } else {
      out += out ? `.${seg}` : seg;
      cur = isObject(cur) ? cur[seg] : undefined;
    }
  }
  return out;
}

/** Maps ajv errors to kube's field errors (messages as k8s.io/kube-openapi's validator words them). */
export function ajvErrorsToCauses(
  errors: ErrorObject[],
  data: unknown,
): FieldCause[] {
  // Branch errors inside a failed anyOf/oneOf are noise: kube reports the combinator once.
  const combinators = errors
    .filter(e => e.keyword === 'anyOf' || e.keyword === 'oneOf')
    .map(e => `${e.schemaPath}/`);
  const seen = new Set<string>();
  const causes: FieldCause[] = [];
  for (const e of errors) {
    if (combinators.some(prefix => e.schemaPath.startsWith(prefix))) continue;
    const cause = toCause(e, data, errors);
    if (!cause) continue;
    const id = `${cause.field}|${cause.message}`;
    if (seen.has(id)) continue;
    seen.add(id);
    causes.push(cause);
  }
  return causes;
}

function toCause(
  e: ErrorObject,
  root: unknown,
  all: ErrorObject[],
): FieldCause | undefined {
  const field = instancePathToField(e.instancePath, root);
  const value = e.data;
  const p = e.params as Record<string, any>;
  const inBody = `${field} in body`;
  switch (e.keyword) {
    case 'required': {
      const f = field
        ? `${field}.${p.missingProperty}`
        : String(p.missingProperty);
      return {
        reason: 'FieldValueRequired',
        message: 'Required value',
        field: f,
      };
    }
    case 'type': {
      const t = Array.isArray(p.type)
        ? p.type.filter((x: string) => x !== 'null').join(',')
        : p.type;
      const actual = typeName(value);
      return {
        reason: 'FieldValueTypeInvalid',
        message: `Invalid value: "${actual}": ${inBody} must be of type ${t}: "${actual}"`,
        field,
      };
    }
    case 'enum': {
      const allowed = (p.allowedValues as unknown[])
        .map(v => JSON.stringify(v))
        .join(', ');
      return {
        reason: 'FieldValueNotSupported',
        message: `Unsupported value: ${renderValue(value)}: supported values: ${allowed}`,
        field,
      };
    }
    case 'minimum':
    case 'exclusiveMinimum':
    case 'maximum':
    case 'exclusiveMaximum': {
      const words: Record<string, string> = {
        minimum: 'greater than or equal to',
        exclusiveMinimum: 'greater than',
        maximum: 'less than or equal to',
        exclusiveMaximum: 'less than',
      };
      return {
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${renderValue(value)}: ${inBody} should be ${words[e.keyword]} ${p.limit}`,
        field,
      };
    }
    case 'maxLength':
      return {
        reason: 'FieldValueTooLong',
        message: `Too long: may not be more than ${p.limit} bytes`,
        field,
      };
    case 'minLength':
      return {
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${renderValue(value)}: ${inBody} should be at least ${p.limit} chars long`,
        field,
      };
    case 'maxItems':
      return {
        reason: 'FieldValueTooMany',
        message: `Too many: ${Array.isArray(value) ? value.length : '?'}: must have at most ${p.limit} items`,
        field,
      };
    case 'minItems':
      return {
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${renderValue(value)}: ${inBody} should have at least ${p.limit} items`,
        field,
      };
    case 'maxProperties':
      return {
        reason: 'FieldValueTooMany',
        message: `Too many: must have at most ${p.limit} items`,
        field,
      };
    case 'minProperties':
      return {
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${renderValue(value)}: ${inBody} should have at least ${p.limit} properties`,
        field,
      };
    case 'pattern':
      return {
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${renderValue(value)}: ${inBody} should match '${p.pattern}'`,
        field,
      };
    case 'format':
      return {
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${renderValue(value)}: ${inBody} must be of type ${p.format}: ${renderValue(value)}`,
        field,
      };
    case 'multipleOf':
      return {
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${renderValue(value)}: ${inBody} should be a multiple of ${p.multipleOf}`,
        field,
      };
    case 'uniqueItems':
      return {
        reason: 'FieldValueDuplicate',
        message: `Duplicate value: ${renderValue(value)}`,
        field,
      };
    case 'anyOf':
    case 'oneOf': {
      const branchTypes = branchTypeNames(e, all);
      if (branchTypes) {
        const actual = typeName(value);
        return {
          reason: 'FieldValueTypeInvalid',
          message: `Invalid value: "${actual}": ${inBody} must be of type ${branchTypes}: "${actual}"`,
          field,
        };
      }
      return {
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${renderValue(value)}: ${inBody} must validate ${e.keyword === 'anyOf' ? 'at least one schema (anyOf)' : 'one and only one schema (oneOf)'}`,
        field,
      };
    }
    case 'not':
      return {
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${renderValue(value)}: ${inBody} must not validate the schema (not)`,
        field,
      };
    default:
      return {
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${renderValue(value)}: ${e.message ?? 'invalid'}`,
        field,
      };
  }
}

/** When every branch of a combinator failed only on `type` (int-or-string), names those types. */
function branchTypeNames(
  combinator: ErrorObject,
  all: ErrorObject[],
): string | undefined {
  const prefix = `${combinator.schemaPath}/`;
  const branch = all.filter(
    e =>
      e.schemaPath.startsWith(prefix) &&
      e.instancePath === combinator.instancePath,
  );
  if (branch.length === 0 || branch.some(e => e.keyword !== 'type'))
    return undefined;
  return branch.map(e => (e.params as { type: string }).type).join(',');
}
