import type { Entity } from '@backstage/catalog-model';
import { LABEL_BACKSTAGE_KUBERNETES_ID } from '@internal/plugin-databases-common';

/**
 * Whether an entity's page should show databases: components with the
 * `backstage.io/kubernetes-id` annotation (the label that ties instances to them).
 *
 * @public
 */
export function isDatabasesAvailable(entity: Entity): boolean {
  return (
    entity.kind.toLowerCase() === 'component' &&
    !!entity.metadata.annotations?.[LABEL_BACKSTAGE_KUBERNETES_ID]
  );
}
