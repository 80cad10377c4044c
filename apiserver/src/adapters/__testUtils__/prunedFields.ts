/**
 * Test support: the fields of `value` a structural CRD schema would prune (fields not
 * declared under `properties`, where neither `additionalProperties` nor
 * `x-kubernetes-preserve-unknown-fields` keeps them). ajv accepts unknown fields, while
 * kube-apiserver silently drops them, so a misspelt field would pass validation and then do
 * nothing: tests check both.
 */
export function prunedFields(schema: any, value: unknown, path = ''): string[] {
  if (!schema || schema['x-kubernetes-preserve-unknown-fields'] === true)
    return [];
  if (Array.isArray(value))
    return value.flatMap((item, i) =>
      prunedFields(schema.items, item, `${path}[${i}]`),
    );
  if (value === null || typeof value !== 'object') return [];
  const out: string[] = [];
  for (const [key, child] of Object.entries(value)) {
    // apiVersion, kind and metadata are the API server's own, whatever the schema says.
    if (!path && ['apiVersion', 'kind', 'metadata'].includes(key)) continue;
    const childPath = path ? `${path}.${key}` : key;
    const declared = schema.properties?.[key];
    if (declared) out.push(...prunedFields(declared, child, childPath));
    else if (
      schema.additionalProperties &&
      schema.additionalProperties !== false
    )
      out.push(...prunedFields(schema.additionalProperties, child, childPath));
    else if (schema.properties || schema.additionalProperties === false)
      out.push(childPath);
  }
  return out;
}
