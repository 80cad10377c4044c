import fs from 'node:fs';
import path from 'node:path';
import { readYamlDocuments } from '../../yaml/readYamlDocuments';
import Ajv from 'ajv';

// eslint-disable-next-line no-restricted-syntax
const HERE = __dirname;

/** `../shared/operators` (the upstream CRDs, samples and statuses), beside the repository root. */
export const UPSTREAM_OPERATORS_DIR = path.resolve(
  HERE,
  '../../../../../../shared/operators',
);

/** Every upstream CRD object under `<operator>/crds`, keyed by `metadata.name` (`<plural>.<group>`). */
export function loadUpstreamCrds(): Map<string, Record<string, any>> {
  const out = new Map<string, Record<string, any>>();
  for (const operator of fs.readdirSync(UPSTREAM_OPERATORS_DIR)) {
    const dir = path.join(UPSTREAM_OPERATORS_DIR, operator, 'crds');
    if (!fs.existsSync(dir)) continue;
    for (const file of fs.readdirSync(dir).filter(f => f.endsWith('.yaml'))) {
      for (const crd of readYamlDocuments(path.join(dir, file))) {
        if (crd?.kind === 'CustomResourceDefinition')
          out.set(crd.metadata.name, crd);
      }
    }
  }
  return out;
}

let cached: Map<string, Record<string, any>> | undefined;

/** The upstream openAPIV3Schema of one kind and version. */
export function upstreamSchema(
  group: string,
  plural: string,
  version: string,
): Record<string, any> {
  cached ??= loadUpstreamCrds();
  const crd = cached.get(`${plural}.${group}`);
  const v = crd?.spec.versions.find((x: any) => x.name === version);
  if (!v) throw new Error(`No upstream CRD ${plural}.${group} ${version}`);
  return v.schema.openAPIV3Schema;
}

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const validators = new Map<string, ReturnType<typeof ajv.compile>>();

/**
 * Validates `obj` against the upstream CRD schema (or only its `status` part) and returns the
 * ajv error messages (empty when valid).
 */
export function upstreamErrors(
  obj: Record<string, any>,
  ref: { group: string; plural: string; version: string },
  part: 'object' | 'status' = 'object',
): string[] {
  const id = `${ref.plural}.${ref.group}/${ref.version}/${part}`;
  let validate = validators.get(id);
  if (!validate) {
    const schema = upstreamSchema(ref.group, ref.plural, ref.version);
    validate = ajv.compile(
      part === 'status' ? schema.properties.status : schema,
    );
    validators.set(id, validate);
  }
  const target = part === 'status' ? obj.status : obj;
  return validate(target)
    ? []
    : (validate.errors ?? []).map(e => `${e.instancePath} ${e.message}`);
}

/** The upstream status sample files of one operator, parsed (comments dropped). */
export function upstreamStatusSamples(
  operator: string,
): Array<{ file: string; status: Record<string, any> }> {
  const dir = path.join(UPSTREAM_OPERATORS_DIR, operator, 'status');
  return fs
    .readdirSync(dir)
    .filter(f => f.endsWith('.yaml'))
    .flatMap(file =>
      readYamlDocuments(path.join(dir, file))
        .filter(obj => obj?.status)
        .map(obj => ({
          file,
          status: obj.status,
          kind: obj.kind as string | undefined,
        })),
    );
}
