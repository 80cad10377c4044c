import { InfoCard, Link, LinkButton, Progress } from '@backstage/core-components';
import { stringifyEntityRef } from '@backstage/catalog-model';
import { useEntity } from '@backstage/plugin-catalog-react';
import { LABEL_BACKSTAGE_KUBERNETES_ID, PortalInstance } from '@internal/plugin-databases-common';
import {
  Box,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@material-ui/core';
import { Alert } from '@material-ui/lab';
import AddIcon from '@material-ui/icons/Add';
import { useBasePath } from '../../hooks/useBasePath';
import { instancePath } from '../../lib/databasesPath';
import { formatReplicas } from '../../lib/format';
import { ErrorExplanation } from '../ErrorExplanation';
import { PhaseChip } from '../PhaseChip';
import { useEntityInstances } from './useEntityInstances';

/** The table of an entity's instances (shared by the card and the tab). */
export function EntityInstancesTable(props: {
  items: PortalInstance[];
  onSelect?: (item: PortalInstance) => void;
  selected?: PortalInstance;
}) {
  const basePath = useBasePath();
  return (
    <Table size="small" aria-label="Databases of this component">
      <TableHead>
        <TableRow>
          <TableCell>Name</TableCell>
          <TableCell>Phase</TableCell>
          <TableCell>Engine</TableCell>
          <TableCell>Version</TableCell>
          <TableCell>Ready</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {props.items.map(item => {
          const { metadata, spec, status } = item.instance;
          const ref = { cluster: item.cluster, namespace: metadata.namespace ?? '', name: metadata.name ?? '' };
          return (
            <TableRow
              key={`${item.cluster}/${metadata.namespace}/${metadata.name}`}
              hover
              selected={props.selected === item}
              onClick={props.onSelect ? () => props.onSelect!(item) : undefined}
              style={props.onSelect ? { cursor: 'pointer' } : undefined}
            >
              <TableCell>
                <Link to={instancePath(basePath, ref)}>{metadata.name}</Link>
              </TableCell>
              <TableCell>
                <PhaseChip phase={status?.phase} reason={status?.reason} />
              </TableCell>
              <TableCell>
                {spec.engine}
                {spec.topology ? ` · ${spec.topology}` : ''}
              </TableCell>
              <TableCell>{status?.version ?? spec.version}</TableCell>
              <TableCell>{formatReplicas(item.instance)}</TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

/** Link to the request form, pre-filled for this entity. */
export function RequestForEntityButton(props: { entityRef: string }) {
  const basePath = useBasePath();
  return (
    <LinkButton
      to={`${basePath}/request?entity=${encodeURIComponent(props.entityRef)}`}
      color="primary"
      variant="outlined"
      startIcon={<AddIcon />}
    >
      Request a database for this component
    </LinkButton>
  );
}

/**
 * The component's databases on its catalog page: phase, engine, version and ready replicas,
 * live; a link to request one when it has none.
 *
 * @public
 */
export function EntityDatabasesCard() {
  const { entity } = useEntity();
  const entityRef = stringifyEntityRef(entity);
  const kubernetesId = entity.metadata.annotations?.[LABEL_BACKSTAGE_KUBERNETES_ID];
  const { data, error, retry } = useEntityInstances(entityRef, kubernetesId);
  return (
    <InfoCard title="Databases" subheader={data ? `${data.totalItems ?? data.items.length} for this component` : undefined}>
      {!data && error === undefined && <Progress />}
      {error !== undefined && <ErrorExplanation error={error} doing="load this component's databases" onRetry={retry} />}
      {data?.errors.map(e => (
        <Box mb={1} key={e.cluster}>
          <Alert severity="warning">
            Cluster {e.cluster} did not answer: {e.message}
          </Alert>
        </Box>
      ))}
      {data && data.items.length > 0 && <EntityInstancesTable items={data.items} />}
      {data && data.items.length === 0 && (
        <Box textAlign="center" py={2}>
          <Typography variant="body2" paragraph color="textSecondary">
            This component has no database yet.
          </Typography>
          <RequestForEntityButton entityRef={entityRef} />
        </Box>
      )}
    </InfoCard>
  );
}
