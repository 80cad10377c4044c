import Ajv, { type ValidateFunction } from 'ajv';
import fs from 'node:fs';
import path from 'node:path';
import { readYamlDocuments } from '@internal/kube-emulator/src/yaml/readYamlDocuments';
import type { KubeObject, SourceKind } from '../types';

/**
 * Test support: read the upstream operator files in ../shared/operators (beside the repo root;
 * the same layout in CI). Nothing here is copied into the repo; tests read them in place.
 * Found as `shared/operators` of the nearest ancestor folder, so a copy of the tree one or more
 * folders deeper (Stryker's sandbox, `.stryker-tmp/sandbox-*`) reads the same files.
 */
export const OPERATORS_DIR = findOperatorsDir(__dirname);

function findOperatorsDir(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'shared', 'operators');
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir)
      throw new Error(`no shared/operators above ${from}`);
  }
}

/** `<operator>/status/*.yaml` for every operator, as paths relative to OPERATORS_DIR. */
export function listStatusFiles(): string[] {
  return fs
    .readdirSync(OPERATORS_DIR, { withFileTypes: true })
    .filter(
      d =>
        d.isDirectory() &&
        fs.existsSync(path.join(OPERATORS_DIR, d.name, 'status')),
    )
    .flatMap(d =>
      fs
        .readdirSync(path.join(OPERATORS_DIR, d.name, 'status'))
        .filter(f => /\.ya?ml$/.test(f))
        .map(f => `${d.name}/status/${f}`),
    )
    .sort();
}

/** The first object of an upstream sample file of the given kind. */
export function readSample(
  operator: string,
  file: string,
  kind: string,
): KubeObject {
  const found = readYamlDocuments(
    path.join(OPERATORS_DIR, operator, 'samples', file),
  ).find(d => (d as KubeObject).kind === kind);
  if (!found) throw new Error(`${operator}/samples/${file} holds no ${kind}`);
  return found as KubeObject;
}

const schemas = new Map<string, any>();


/**
 * The upstream CRD's openAPIV3Schema for `kind` at its version, read once per test file:
 * callers must not change it.
 */
export function crdSchema(operator: string, kind: SourceKind): any {
  const file = path.join(
    OPERATORS_DIR,
    operator,
    'crds',
    `${kind.group}_${kind.plural}.yaml`,
  );
  const key = `${file}/${kind.version}`;
  if (!schemas.has(key)) {
    const crd = readYamlDocuments(file)[0] as any;
    const version = crd.spec.versions.find((v: any) => v.name === kind.version);
    if (!version) throw new Error(`${file} does not serve ${kind.version}`);
    schemas.set(key, version.schema.openAPIV3Schema);
  }
  return schemas.get(key);
}

const validators = new Map<string, ValidateFunction>();

/**
 * A validator for objects of `kind` built from the upstream CRD's openAPIV3Schema, so fixtures
 * and wrappers built by tests are proven to fit the real schema.
 */
export function crdValidator(
  operator: string,
  kind: SourceKind,
): ValidateFunction {
  const key = `${operator}/${kind.group}/${kind.plural}/${kind.version}`;
  const cached = validators.get(key);
  if (cached) return cached;
  // Kubernetes extensions (x-kubernetes-*) and formats such as int-or-string are not JSON Schema.
  const ajv = new Ajv({
    strict: false,
    validateFormats: false,
    allErrors: true,
  });
  const validate = ajv.compile(crdSchema(operator, kind));
  validators.set(key, validate);
  return validate;
}

/** Throws with ajv's errors when `object` does not fit its upstream CRD schema. */
export function assertFitsCrd(
  operator: string,
  kind: SourceKind,
  object: KubeObject,
): void {
  const validate = crdValidator(operator, kind);
  if (!validate(object)) {
    throw new Error(
      `${kind.kind} does not fit the upstream schema: ${JSON.stringify(validate.errors, null, 1)}`,
    );
  }
}

export { readYamlDocuments };
