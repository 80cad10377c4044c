import { META_NAMES, ref, refField } from './metaSchemas';
import { API_VERSION, gvk, KIND, schemaName } from './schemaBuilders';
import type { Schema } from './types';

/** The `<Kind>List` schema of one of our kinds, as Kubernetes' generator writes list types. */
export function listSchema(kind: string): Record<string, Schema> {
  return {
    [schemaName(`${kind}List`)]: {
      type: 'object',
      description: `${kind}List is a list of ${kind}.`,
      required: ['items'],
      properties: {
        apiVersion: API_VERSION,
        items: {
          type: 'array',
          description: `Items is the list of ${kind}.`,
          items: { default: {}, allOf: [ref(schemaName(kind))] },
        },
        kind: KIND,
        metadata: refField(META_NAMES.listMeta, 'Standard list metadata.'),
      },
      'x-kubernetes-group-version-kind': gvk(`${kind}List`),
    },
  };
}
