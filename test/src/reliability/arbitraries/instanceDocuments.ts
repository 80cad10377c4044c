import fc from 'fast-check';
import YAML from 'yaml';
import { hostileString, longString } from './hostileStrings';

/** Valid specs, one or more per engine, that the apiserver accepts as they are. */
export const VALID_SPECS: ReadonlyArray<Record<string, unknown>> = [
  { engine: 'mariadb', topology: 'standalone', version: '11.4', replicas: 1, storage: { size: '1Gi' } },
  { engine: 'mariadb', topology: 'galera', version: '11.8', replicas: 3, storage: { size: '10Gi' }, deletionProtection: true },
  { engine: 'mysql', topology: 'innodbcluster', version: '8.4.3', replicas: 3 },
  { engine: 'redis', topology: 'standalone', version: '7.0.15', replicas: 1 },
  { engine: 'redis', topology: 'cluster', replicas: 3, resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } } },
  { engine: 'elasticsearch', version: '9.4.3', replicas: 1, storage: { size: '5Gi' } },
  { engine: 'rabbitmq', topology: 'cluster', version: '4.2.6', replicas: 3 },
  { engine: 'postgresql', topology: 'replication', version: '17.10', replicas: 2, storage: { size: '5Gi' } },
  { engine: 'postgresql', topology: 'standalone', replicas: 1 },
];

/** A JSON value of any kind, including ones JSON cannot say exactly (huge, tiny, -0). */
export const anyJsonValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }) },
    { weight: 1, arbitrary: fc.constantFrom(null, true, false, 0, -0, -1, 1.5, 2 ** 53 + 1, 1e308, -1e308, '', '0', 'null', '1Gi', '-1Gi', '1e999Gi') },
    { weight: 1, arbitrary: hostileString() },
    { weight: 1, arbitrary: fc.constantFrom([], {}, [[]], [{}], { '': '' }) },
    // objects String() and template literals cannot convert: they throw instead of printing
    { weight: 1, arbitrary: fc.constantFrom({ toString: 0 }, { toString: null, valueOf: 1 }, [{ toString: 'x' }], { constructor: 0 }) },
  );

/** Every place in a DatabaseInstance a client can write, as a path of keys. */
const WRITABLE_PATHS: ReadonlyArray<readonly string[]> = [
  [],
  ['apiVersion'],
  ['kind'],
  ['metadata'],
  ['metadata', 'name'],
  ['metadata', 'generateName'],
  ['metadata', 'namespace'],
  ['metadata', 'uid'],
  ['metadata', 'resourceVersion'],
  ['metadata', 'labels'],
  ['metadata', 'annotations'],
  ['metadata', 'finalizers'],
  ['metadata', 'ownerReferences'],
  ['metadata', 'managedFields'],
  ['metadata', 'deletionTimestamp'],
  ['spec'],
  ['spec', 'engine'],
  ['spec', 'version'],
  ['spec', 'topology'],
  ['spec', 'replicas'],
  ['spec', 'storage'],
  ['spec', 'storage', 'size'],
  ['spec', 'storage', 'storageClassName'],
  ['spec', 'resources'],
  ['spec', 'resources', 'requests'],
  ['spec', 'resources', 'requests', 'cpu'],
  ['spec', 'resources', 'limits', 'memory'],
  ['spec', 'deletionProtection'],
  ['status'],
  ['status', 'phase'],
];

/** One change to a document, applied in order. */
export type Mutation =
  | { op: 'set'; path: readonly string[]; value: unknown }
  | { op: 'delete'; path: readonly string[] }
  | { op: 'unknown'; path: readonly string[]; key: string; value: unknown };

/** A deep copy of JSON-like data that keeps own keys such as `__proto__` as plain data. */
function cloneData(v: unknown): unknown {
  if (Array.isArray(v)) return Array.from(v, cloneData);
  if (v === null || typeof v !== 'object') return v;
  const out = {};
  for (const key of Object.keys(v)) {
    Object.defineProperty(out, key, { value: cloneData((v as any)[key]), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** Returns `doc` with `m` applied (a deep copy; missing parents are created). */
export function applyMutation(doc: unknown, m: Mutation): unknown {
  if (m.path.length === 0 && m.op === 'set') return m.value;
  const root: any = cloneData(doc ?? {});
  let node = root;
  for (const key of m.path.slice(0, m.op === 'unknown' ? m.path.length : -1)) {
    if (!Object.prototype.hasOwnProperty.call(node, key) || node[key] === null || typeof node[key] !== 'object') {
      Object.defineProperty(node, key, { value: {}, enumerable: true, writable: true, configurable: true });
    }
    node = node[key];
  }
  if (node === null || typeof node !== 'object') return root;
  const last = m.path[m.path.length - 1];
  if (m.op === 'set') Object.defineProperty(node, last, { value: m.value, enumerable: true, writable: true, configurable: true });
  else if (m.op === 'delete') delete node[last];
  else Object.defineProperty(node, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
  return root;
}

const parentPaths = WRITABLE_PATHS.filter(p => ['', 'metadata', 'spec', 'storage', 'resources', 'requests', 'limits'].includes(p[p.length - 1] ?? ''));

/** A field name the schema does not have (never one of the real ones, so "unknown" is certain). */
export const unknownFieldName = (): fc.Arbitrary<string> =>
  fc
    .oneof(fc.constantFrom('foo', 'replica', 'Engine', 'spec', 'status2', '__proto__', 'constructor', 'a.b', 'x y', '"q"', 'ünï', 'a\nb'), hostileString(12))
    .filter(k => !['apiVersion', 'kind', 'metadata', 'spec', 'status', 'name', 'namespace', 'labels', 'annotations', 'engine', 'version', 'topology', 'replicas', 'storage', 'resources', 'deletionProtection', 'size', 'storageClassName', 'generateName', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'ownerReferences', 'finalizers', 'managedFields'].includes(k));

/** A mutation: a wrong type or value anywhere, a removed field, or an unknown field. */
export const mutation = (): fc.Arbitrary<Mutation> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.record({ op: fc.constant('set' as const), path: fc.constantFrom(...WRITABLE_PATHS.filter(p => p.length)), value: anyJsonValue() }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), path: fc.constantFrom(...WRITABLE_PATHS.filter(p => p.length)) }) },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('unknown' as const),
        path: fc.constantFrom(...parentPaths.filter(p => p[0] !== 'status' && !['requests', 'limits', 'resources'].includes(p[p.length - 1] ?? ''))),
        key: unknownFieldName(),
        value: anyJsonValue(),
      }),
    },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('set' as const), path: fc.constantFrom<readonly string[]>(['spec', 'storage', 'size'], ['metadata', 'name'], ['metadata', 'labels', 'a']), value: longString() }) },
  );

/** A valid instance document for `namespace`. */
export const validInstance = (namespace: string, name: fc.Arbitrary<string>): fc.Arbitrary<Record<string, unknown>> =>
  fc.record({ name, spec: fc.constantFrom(...VALID_SPECS) }).map(({ name: n, spec }) => ({
    apiVersion: 'dbaas.platform.dev/v1alpha1',
    kind: 'DatabaseInstance',
    metadata: { name: n, namespace, labels: { 'backstage.io/kubernetes-id': 'hostile' } },
    spec: cloneData(spec) as Record<string, unknown>,
  }));

/** Nesting past the apiserver's limit of 100 levels (always > 100), as JSON text, at the top or inside a field. */
export const deeplyNestedJson = (): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 101, max: 3000 }) }, { weight: 1, arbitrary: fc.integer({ min: 3000, max: 20_000 }) }),
      fc.constantFrom('array', 'object', 'spec.resources', 'status', 'metadata.ownerReferences', 'spec.storage'),
    )
    .map(([depth, where]) => {
      const inner = `${'{"a":'.repeat(depth)}[1]${'}'.repeat(depth)}`;
      if (where === 'array') return '['.repeat(depth) + ']'.repeat(depth);
      if (where === 'object') return inner;
      const [outer, field] = where.split('.');
      const fieldJson = field ? `{${JSON.stringify(field)}:${inner}}` : inner;
      // a second "metadata" or "spec" key is deliberate: decoders must cope with duplicates too
      return `{"metadata":{"name":"deep"},"spec":{"engine":"redis"},${JSON.stringify(outer)}:${fieldJson}}`;
    });

/** Text that is not valid JSON, or valid only in a way a JSON decoder should refuse. */
export const malformedJson = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom('', ' ', '{', '}', '{"metadata":', '{"a":1,}', "{'a':1}", '{a:1}', '[1,]', 'NaN', '{"a":NaN}', '{"a":1e}',
      '{"a":"\\x"}', '{"a":"\u0001"}', '//c\n{}', '{"a":1}}', '{"a":1} x', '\ufeff{', 'undefined', '{"a":01}', '{"__proto__":'),
    fc.tuple(fc.jsonValue({ maxDepth: 3 }), fc.nat()).map(([v, cut]) => {
      const text = JSON.stringify(v);
      return text.length > 1 ? text.slice(0, 1 + (cut % (text.length - 1))) : '{';
    }),
    hostileString(80).filter(s => {
      try {
        JSON.parse(s);
        return false;
      } catch {
        return true;
      }
    }),
  );

/** "Billion laughs": each level lists the previous one nine times through aliases. */
function aliasBomb(levels: number): string {
  const key = (i: number) => String.fromCharCode(97 + i);
  const lines = [`${key(0)}: &${key(0)} [${Array(9).fill('"lol"').join(',')}]`];
  for (let i = 1; i <= levels; i++) lines.push(`${key(i)}: &${key(i)} [${Array(9).fill(`*${key(i - 1)}`).join(',')}]`);
  return lines.join('\n');
}

/** YAML that is hostile to a YAML parser: alias bombs, custom tags, several documents, bad indentation. */
export const hostileYaml = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(
      aliasBomb(9),
      'metadata: &m {name: x}\nspec: *m',
      'metadata: !!binary aGVsbG8=\nspec: {}',
      'metadata: !<tag:yaml.org,2002:js/function> "function(){}"\n',
      '!!python/object/apply:os.system ["true"]',
      'metadata: {name: a}\n---\nmetadata: {name: b}\n',
      'metadata:\n  name: a\n name: b\n',
      'spec: {engine: redis, engine: mariadb}\n',
      '? [a, b]\n: c\n',
      'metadata: {name: !!int 12}\n',
      'a: 1\n\t b: 2\n',
      '- 1\n- 2\n',
      '"unterminated',
      '%YAML 9.9\n---\na: 1\n',
      '<<: {metadata: {name: merged}}\n',
      'spec: {replicas: .inf}\n',
      'spec: {replicas: 0x10, deletionProtection: yes}\n',
    ),
    fc.jsonValue({ maxDepth: 3 }).map(v => YAML.stringify(v)),
    hostileString(80),
  );
