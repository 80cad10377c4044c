import type { Entity } from '@backstage/catalog-model';
import {
  ANNOTATION_OWNER,
  LABEL_BACKSTAGE_KUBERNETES_ID,
  type PortalInstance,
} from '@internal/plugin-databases-common';

/** Annotation holding `<cluster>:<namespace>/<name>` of the instance an entity stands for. */
export const ANNOTATION_INSTANCE_REF = 'dbaas.platform.dev/instance';

/**
 * Annotation holding `<cluster>:<namespace>`: the unit Kubernetes RBAC grants reads in, which the
 * catalog read permission filters on (DatabasesCatalogAccess).
 */
export const ANNOTATION_SCOPE = 'dbaas.platform.dev/scope';

/**
 * Annotation holding the cluster's name: a user who may read a whole cluster is let through on
 * it, one condition instead of one per namespace (DatabasesCatalogAccess).
 */
export const ANNOTATION_CLUSTER = 'dbaas.platform.dev/cluster';

/** The owner of an instance nobody owns: the entity says so rather than naming a group. */
export const UNOWNED = 'unowned';

/** The value of {@link ANNOTATION_SCOPE} for a namespace of a cluster. */
export const scopeOf = (cluster: string, namespace: string) => `${cluster}:${namespace}`;

/**
 * The catalog `Resource` (type `database`) of one instance: named `<cluster>-<namespace>-<name>`
 * so names stay unique across clusters, owned by its owner annotation, and `dependencyOf` the
 * component its `backstage.io/kubernetes-id` label names (in the `default` namespace, the
 * Kubernetes plugin's convention).
 */
export function instanceToEntity(
  p: PortalInstance,
  locationKey: string,
  catalog: { namespaceOwners: Record<string, string> } = { namespaceOwners: {} },
): Entity {
  const { metadata, spec, status } = p.instance;
  const component = metadata.labels?.[LABEL_BACKSTAGE_KUBERNETES_ID];
  const ref = `${p.cluster}:${metadata.namespace}/${metadata.name}`;
  const name = `${p.cluster}-${metadata.namespace}-${metadata.name}`
    .replace(/[^A-Za-z0-9_.-]/g, '-')
    .slice(0, 63)
    .replace(/[-_.]+$/, '');
  return {
    apiVersion: 'backstage.io/v1alpha1',
    kind: 'Resource',
    metadata: {
      name,
      title: `${metadata.name} (${metadata.namespace}, ${p.cluster})`,
      description: `${spec.engine}${spec.topology ? ` ${spec.topology}` : ''} database`,
      annotations: {
        'backstage.io/managed-by-location': `dbaas:${locationKey}`,
        'backstage.io/managed-by-origin-location': `dbaas:${locationKey}`,
        [ANNOTATION_INSTANCE_REF]: ref,
        [ANNOTATION_SCOPE]: scopeOf(p.cluster, metadata.namespace ?? ''),
        [ANNOTATION_CLUSTER]: p.cluster,
        ...(component ? { [LABEL_BACKSTAGE_KUBERNETES_ID]: component } : {}),
      },
      labels: {
        'dbaas.platform.dev/engine': spec.engine,
        ...(status?.phase ? { 'dbaas.platform.dev/phase': status.phase.toLowerCase() } : {}),
      },
      tags: [spec.engine],
    },
    spec: {
      type: 'database',
      // nobody is invented: the instance's owner, else its namespace's as the platform maps it
      owner: metadata.annotations?.[ANNOTATION_OWNER] ?? catalog.namespaceOwners[metadata.namespace ?? ''] ?? UNOWNED,
      ...(component ? { dependencyOf: [`component:default/${component}`] } : {}),
    },
  };
}
