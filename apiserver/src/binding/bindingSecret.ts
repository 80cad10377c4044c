import {
  ANNOTATION_BINDING_SOURCE,
  bindingType,
  LABEL_BINDING,
  LABEL_MANAGED_BY,
  MANAGED_BY_VALUE,
  type DatabaseInstance,
} from '@internal/plugin-databases-common';
import type { ConnectionDetails, KubeObject, ResourceType } from '../adapters/types';

/** The binding Secrets, and only them (the label selector the projection's informer uses). */
export const BINDING_SECRETS: ResourceType = {
  group: '',
  version: 'v1',
  plural: 'secrets',
  kind: 'Secret',
  labelSelector: `${LABEL_BINDING}=true`,
  // the projection needs to know the Secret exists and whose it is, never its values
  slim: obj => {
    const { name, namespace, uid, resourceVersion, labels, ownerReferences } = obj.metadata ?? {};
    const owners = (ownerReferences as Array<{ uid?: string }> | undefined)?.map(r => ({ uid: r.uid }));
    return {
      metadata: { name, namespace, uid, resourceVersion, labels: { [LABEL_BINDING]: labels?.[LABEL_BINDING] ?? '' }, ownerReferences: owners },
    };
  },
};

/**
 * The binding Secret of an operator object: `<name>-binding`, in its namespace (named after the
 * operator object, not the served name, which a name shared by two operators changes).
 */
export const bindingSecretName = (objectName: string): string => `${objectName}-binding`;

/**
 * The Secret's entries, named as the specification's well-known entries: the `connection`
 * subresource's values, so an application bound through it connects as a client of that does.
 */
export function bindingEntries(engine: string, provider: string, details: ConnectionDetails): Record<string, string> {
  const type = bindingType(engine);
  return {
    type,
    provider,
    host: details.host,
    port: String(details.port),
    ...(details.username !== undefined && { username: details.username }),
    ...(details.password !== undefined && { password: details.password }),
    // Bitnami's charts (WordPress, Ghost, Matomo…) read an existing Secret's `mariadb-password`
    ...(details.password !== undefined && type === 'mysql' && { 'mariadb-password': details.password }),
    ...(details.database !== undefined && { database: details.database }),
    uri: details.uri,
  };
}

/** The binding Secret as it should be: owned by the operator object, so it goes with it. */
export function desiredBindingSecret(
  instance: DatabaseInstance,
  owner: KubeObject,
  entries: Record<string, string>,
  source: string,
): KubeObject {
  const namespace = instance.metadata.namespace ?? 'default';
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: bindingSecretName(owner.metadata?.name ?? ''),
      namespace,
      labels: { [LABEL_BINDING]: 'true', [LABEL_MANAGED_BY]: MANAGED_BY_VALUE },
      annotations: { [ANNOTATION_BINDING_SOURCE]: source },
      ownerReferences: [
        {
          apiVersion: owner.apiVersion,
          kind: owner.kind,
          name: owner.metadata?.name,
          uid: owner.metadata?.uid,
        },
      ],
    },
    type: `servicebinding.io/${entries.type}`,
    data: Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, Buffer.from(v, 'utf8').toString('base64')])),
  };
}

/** Whether `secret` is the apiserver's binding Secret for the operator object `owner`. */
export function isBindingSecretOf(secret: KubeObject, owner: KubeObject): boolean {
  return (
    secret.metadata?.labels?.[LABEL_BINDING] === 'true' &&
    ((secret.metadata as { ownerReferences?: Array<{ uid?: string }> }).ownerReferences ?? []).some(r => r.uid === owner.metadata?.uid)
  );
}
