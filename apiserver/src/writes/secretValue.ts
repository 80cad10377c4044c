import type { KubeObject } from '../adapters/types';

/**
 * A value of a core/v1 Secret: `stringData` (as written, before the API server folds it in)
 * wins over base64 `data`. Undefined for a missing Secret or key.
 */
export function secretValue(
  secret: KubeObject | undefined,
  key: string,
): string | undefined {
  if (!secret) return undefined;
  const stringData = secret.stringData as Record<string, unknown> | undefined;
  const plain = stringData?.[key];
  if (typeof plain === 'string') return plain;
  const data = secret.data as Record<string, unknown> | undefined;
  const encoded = data?.[key];
  if (typeof encoded !== 'string') return undefined;
  return Buffer.from(encoded, 'base64').toString('utf8');
}

/** An Opaque Secret with string data, labelled as created by this API. */
export function opaqueSecret(
  name: string,
  namespace: string | undefined,
  labels: Record<string, string>,
  stringData: Record<string, string>,
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, ...(namespace && { namespace }), labels },
    type: 'Opaque',
    stringData,
  };
}
