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
 * Checks that every property path `ours` declares also exists in `upstream` with the same type.
 * Returns one message per problem (empty when `ours` is a faithful subset). Paths use `.` for
 * properties, `[]` for array items and `{}` for additionalProperties.
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
