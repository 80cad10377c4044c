import { Content, InfoCard, Progress } from '@backstage/core-components';
import { stringifyEntityRef } from '@backstage/catalog-model';
import { useEntity } from '@backstage/plugin-catalog-react';
import { LABEL_BACKSTAGE_KUBERNETES_ID, PortalInstance } from '@internal/plugin-databases-common';
import { Box, Typography } from '@material-ui/core';
import { useState } from 'react';
import { ErrorExplanation } from '../ErrorExplanation';
import { InstancePage } from '../InstancePage';
import { EntityInstancesTable, RequestForEntityButton } from './EntityDatabasesCard';
import { useEntityInstances } from './useEntityInstances';

const keyOf = (i: PortalInstance) => `${i.cluster}/${i.instance.metadata.namespace}/${i.instance.metadata.name}`;

/**
 * The entity's "Databases" tab: its instances, and the full detail of the one selected.
 *
 * @public
 */
export function EntityDatabasesContent() {
  const { entity } = useEntity();
  const entityRef = stringifyEntityRef(entity);
  const kubernetesId = entity.metadata.annotations?.[LABEL_BACKSTAGE_KUBERNETES_ID];
  const { data, error, retry } = useEntityInstances(entityRef, kubernetesId);
  // By key, not object: the list is refetched and its objects replaced on every event.
  const [selectedKey, setSelectedKey] = useState<string>();
  const shown = data?.items.find(i => keyOf(i) === selectedKey) ?? data?.items[0];
  return (
    <Content noPadding>
      <InfoCard title="Databases" action={<RequestForEntityButton entityRef={entityRef} />}>
        {!data && error === undefined && <Progress />}
        {error !== undefined && <ErrorExplanation error={error} doing="load this component's databases" onRetry={retry} />}
        {data && data.items.length > 0 && (
          <EntityInstancesTable items={data.items} onSelect={i => setSelectedKey(keyOf(i))} selected={shown} />
        )}
        {data && data.items.length === 0 && (
          <Typography variant="body2" color="textSecondary">
            This component has no database yet.
          </Typography>
        )}
      </InfoCard>
      {shown && (
        <Box mt={2}>
          <InstancePage
            key={`${shown.cluster}/${shown.instance.metadata.namespace}/${shown.instance.metadata.name}`}
            instanceRef={{
              cluster: shown.cluster,
              namespace: shown.instance.metadata.namespace ?? '',
              name: shown.instance.metadata.name ?? '',
            }}
          />
        </Box>
      )}
    </Content>
  );
}
