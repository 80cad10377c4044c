/** A JSON-schema node as it appears in a CRD's openAPIV3Schema. */
type SchemaNode = Record<string, any>;

const isObj = (v: unknown): v is SchemaNode =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The type a structural-schema node declares; int-or-string counts as its own type. */
export function schemaType(node: SchemaNode): string | undefined {
  if (node['x-kubernetes-int-or-string'] === true) return 'int-or-string';
  return typeof node.type === 'string' ? node.type : undefined;
}

/**
 * Checks that every property path `ours` declares also exists in `upstream` with the same type
 * and the same validation (see compareConstraints), so that the compact CRD prunes, defaults and
 * refuses what upstream does. Returns one message per problem (empty when `ours` is a faithful
 * subset). Paths use `.` for properties, `[]` for array items and `{}` for additionalProperties.
 */
export function compareSchemas(
  ours: unknown,
  upstream: unknown,
  at = '',
): string[] {
  if (!isObj(ours)) return [];
  const where = at || '<root>';
  if (!isObj(upstream)) return [`${where}: declared here but absent upstream`];
  const problems: string[] = [];
  const ourType = schemaType(ours);
  const theirType = schemaType(upstream);
  if (ourType !== theirType) {
    problems.push(
      `${where}: type ${ourType ?? '(none)'} here but ${theirType ?? '(none)'} upstream`,
    );
  }
  problems.push(...compareConstraints(ours, upstream, where));
  for (const [key, child] of Object.entries(
    isObj(ours.properties) ? ours.properties : {},
  )) {
    const theirs = isObj(upstream.properties)
      ? upstream.properties[key]
      : undefined;
    problems.push(...compareSchemas(child, theirs, at ? `${at}.${key}` : key));
  }
  if (isObj(ours.items)) {
    problems.push(...compareSchemas(ours.items, upstream.items, `${at}[]`));
  }
  if (isObj(ours.additionalProperties)) {
    problems.push(
      ...compareSchemas(
        ours.additionalProperties,
        upstream.additionalProperties,
        `${at}{}`,
      ),
    );
  }
  return problems;
}

/** What kube-apiserver validates or defaults at a node, besides its type. */
const CONSTRAINTS = [
  'enum',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'multipleOf',
  'uniqueItems',
  'default',
  'nullable',
  'required',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-validations',
] as const;

/** A node that declares nothing below it and keeps every field: the project never looks inside. */
export function isOpaque(node: SchemaNode): boolean {
  return (
    node['x-kubernetes-preserve-unknown-fields'] === true &&
    !isObj(node.properties) &&
    !isObj(node.items) &&
    !isObj(node.additionalProperties)
  );
}

/**
 * A declared node validates exactly as upstream's: same constraints and the same pruning. The
 * one allowed difference is an opaque node (see isOpaque) where upstream declares a subtree the
 * project neither reads nor writes: it keeps the subtree as sent, unvalidated.
 */
function compareConstraints(
  ours: SchemaNode,
  upstream: SchemaNode,
  where: string,
): string[] {
  if (isOpaque(ours)) return [];
  const problems: string[] = [];
  const preserve = (n: SchemaNode) =>
    n['x-kubernetes-preserve-unknown-fields'] === true;
  if (preserve(ours) !== preserve(upstream))
    problems.push(
      `${where}: ${preserve(ours) ? 'keeps' : 'prunes'} unknown fields, upstream ${preserve(upstream) ? 'keeps' : 'prunes'} them`,
    );
  for (const key of CONSTRAINTS) {
    const a = JSON.stringify(normalise(key, ours[key]));
    const b = JSON.stringify(normalise(key, upstream[key]));
    if (a !== b)
      problems.push(
        `${where}: ${key} ${a ?? '(none)'} here but ${b ?? '(none)'} upstream`,
      );
  }
  return problems;
}

function normalise(key: string, value: unknown): unknown {
  if (key === 'required' && Array.isArray(value)) return [...value].sort();
  if (key === 'x-kubernetes-validations' && Array.isArray(value))
    return value.map(r => ({
      ...r,
      rule: String(r.rule).replace(/\s+/g, ' ').trim(),
    }));
  return value;
}
