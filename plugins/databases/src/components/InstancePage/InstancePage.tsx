import {
  CodeSnippet,
  Content,
  ContentHeader,
  InfoCard,
  Link,
  Progress,
  StructuredMetadataTable,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { usePermission } from '@backstage/plugin-permission-react';
import {
  databasesInstanceConnectionReadPermission,
  databasesInstanceDeletePermission,
  databasesInstanceUpdatePermission,
  instanceResourceRef,
  LABEL_BACKSTAGE_KUBERNETES_ID,
  PhaseTransition,
  PortalInstance,
  RequestRecord,
  type DatabaseBackup,
  type DatabaseEngine,
  type InstanceActions as AllowedActions,
} from '@internal/plugin-databases-common';
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Box,
  Grid,
  LinearProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@material-ui/core';
import { Alert, AlertTitle } from '@material-ui/lab';
import ExpandMoreIcon from '@material-ui/icons/ExpandMore';
import { useCallback, useEffect, useRef, useState } from 'react';
import { databasesApiRef, InstanceRef } from '../../api/types';
import { useBasePath } from '../../hooks/useBasePath';
import { useDatabasesEvents } from '../../hooks/useDatabasesEvents';
import { formatAge, formatReplicas, ownerOf } from '../../lib/format';
import { phaseStyle } from '../../lib/phaseStyle';
import { ErrorExplanation } from '../ErrorExplanation';
import { OwnerLink } from '../OwnerLink';
import { PhaseChip } from '../PhaseChip';
import { BackupsCard } from './BackupsCard';
import { SchedulesCard } from './SchedulesCard';
import { ConnectionDetails } from './ConnectionDetails';
import { ConnectPanel } from './ConnectPanel';
import { DiagnosisPanel } from './DiagnosisPanel';
import { InstanceEvents } from './InstanceEvents';
import { MembersCard } from './MembersCard';
import { InstanceActions } from './InstanceActions';
import { buildTimeline, LifecycleTimeline } from './LifecycleTimeline';
import { allowedBoth } from '../../lib/allowedBoth';

/** The phase banner's alert severity per tone of the phase colour language. */
const ALERT_SEVERITY: Record<string, 'error' | 'warning' | 'success' | 'info'> = {
  error: 'error',
  warning: 'warning',
  ok: 'success',
};

/**
 * One instance: phase with reason and the operator's message, a live lifecycle timeline,
 * endpoints, connection details, actions and the raw operator status.
 *
 * @public
 */
export function InstancePage(props: { instanceRef: InstanceRef }) {
  const { instanceRef } = props;
  const api = useApi(databasesApiRef);
  const basePath = useBasePath();
  const [item, setItem] = useState<PortalInstance>();
  // what the backend says the caller may do: the portal's policy and the cluster's RBAC (a review
  // as the user); until it has said, the policy's answer alone
  const [actions, setActions] = useState<AllowedActions>();
  const [error, setError] = useState<unknown>();
  const [deleted, setDeleted] = useState(false);
  const [transitions, setTransitions] = useState<PhaseTransition[]>([]);
  const [requests, setRequests] = useState<RequestRecord[]>([]);
  // the backup runs the Backups card follows live, for the timeline
  const [runs, setRuns] = useState<DatabaseBackup[]>([]);
  // The engine (from DatabaseEngine) says which versions and replica counts the actions may offer.
  const [engineInfo, setEngineInfo] = useState<DatabaseEngine>();
  const resourceRef = instanceResourceRef(instanceRef.cluster, instanceRef.namespace, instanceRef.name);
  const update = usePermission({ permission: databasesInstanceUpdatePermission, resourceRef });
  const remove = usePermission({ permission: databasesInstanceDeletePermission, resourceRef });
  const connection = usePermission({ permission: databasesInstanceConnectionReadPermission, resourceRef });

  // Events of this instance seen so far. The stream delivers every change, so an event is never
  // behind; a read sent before it (a load, the answer to an action) may be.
  const eventsSeen = useRef(0);
  // Called as a read is sent: what it returns shows the state the read brings back, unless an
  // event of this instance came meanwhile (the read would put back an older state).
  const unlessOvertaken = () => {
    const seen = eventsSeen.current;
    return (read: PortalInstance) => {
      if (eventsSeen.current === seen) setItem(read);
    };
  };
  const load = useCallback(async () => {
    try {
      const show = unlessOvertaken();
      const { actions: allowed, ...loaded } = await api.getInstance(instanceRef);
      setActions(allowed);
      show(loaded);
      setError(undefined);
    } catch (e) {
      setError(e);
    }
    // History is a nice-to-have: the page works without it.
    api.getHistory(instanceRef).then(
      h => {
        setTransitions(t => [...h.transitions, ...t]);
        setRequests(h.requests);
      },
      () => undefined,
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, instanceRef.cluster, instanceRef.namespace, instanceRef.name]);

  useEffect(() => {
    load();
  }, [load]);

  const engine = item?.instance.spec.engine;
  useEffect(() => {
    if (!engine) return;
    api.listEngines(instanceRef.cluster).then(
      r => setEngineInfo(r.items.find(e => e.spec.engine === engine)),
      () => undefined,
    );
  }, [api, engine, instanceRef.cluster]);

  useDatabasesEvents({
    // reload instance and history: what changed before the stream connected is only there
    onOpen: () => load(),
    onInstance: event => {
      const m = event.instance.metadata;
      if (event.cluster !== instanceRef.cluster || m.namespace !== instanceRef.namespace || m.name !== instanceRef.name) {
        return;
      }
      eventsSeen.current++;
      if (event.type === 'DELETED') setDeleted(true);
      else setItem({ cluster: event.cluster, instance: event.instance });
      if (event.transition) setTransitions(t => [...t, event.transition!]);
    },
  });

  if (error !== undefined && !item) {
    return (
      <Content>
        <ErrorExplanation error={error} doing={`load ${instanceRef.name}`} onRetry={load} />
        <Box mt={2}>
          <Link to={basePath}>Back to all databases</Link>
        </Box>
      </Content>
    );
  }
  if (!item) return <Progress />;

  const { instance } = item;
  const status = instance.status;
  const style = phaseStyle(status?.phase);
  const owner = ownerOf(instance);
  const component = instance.metadata.labels?.[LABEL_BACKSTAGE_KUBERNETES_ID];

  return (
    <Content>
      <ContentHeader title={instance.metadata.name ?? ''} description={`${instance.metadata.namespace} · ${item.cluster}`}>
        <PhaseChip phase={status?.phase} reason={status?.reason} size="medium" />
      </ContentHeader>
      {deleted && (
        <Box mb={2}>
          <Alert severity="info">
            This database has been deleted. <Link to={basePath}>Back to all databases</Link>
          </Alert>
        </Box>
      )}
      <Box mb={3}>
        <Alert
          severity={ALERT_SEVERITY[style.tone] ?? 'info'}
          data-testid="phase-banner"
        >
          <AlertTitle>
            {status?.phase ?? 'Unknown'}
            {status?.reason ? ` — ${status.reason}` : ''}
          </AlertTitle>
          {status?.message ? <div>{status.message}</div> : <div>{style.description}</div>}
        </Alert>
        {style.inProgress && !deleted && <LinearProgress aria-label="Work in progress" />}
      </Box>
      <Grid container spacing={3}>
        {status?.phase !== 'Ready' && !deleted && (
          <Grid item xs={12}>
            <InfoCard title="What is wrong">
              <DiagnosisPanel instanceRef={instanceRef} version={instance.metadata.resourceVersion} />
            </InfoCard>
          </Grid>
        )}
        <Grid item xs={12} md={6}>
          <InfoCard title="Overview">
            <StructuredMetadataTable
              metadata={{
                engine: `${instance.spec.engine}${instance.spec.topology ? ` (${instance.spec.topology})` : ''}`,
                version:
                  status?.version && instance.spec.version && status.version !== instance.spec.version
                    ? `${status.version} (upgrading to ${instance.spec.version})`
                    : status?.version ?? instance.spec.version ?? '',
                'ready replicas': formatReplicas(instance),
                storage: instance.spec.storage?.size ?? '',
                owner: owner ? <OwnerLink entityRef={owner} /> : '—',
                component: component ?? '—',
                operator: status?.source ? `${status.source.operator} (${status.source.kind} ${status.source.name})` : '—',
                'deletion protection': instance.spec.deletionProtection ? 'on' : 'off',
                age: formatAge(instance.metadata.creationTimestamp),
              }}
            />
          </InfoCard>
        </Grid>
        <Grid item xs={12} md={6}>
          <InfoCard title="Actions">
            <InstanceActions
              instanceRef={instanceRef}
              instance={instance}
              engine={engineInfo}
              permissions={{ update: allowedBoth(update, actions?.update), delete: allowedBoth(remove, actions?.delete) }}
              beginChange={unlessOvertaken}
              onDeleted={() => load()}
            />
          </InfoCard>
          <Box mt={3}>
            <InfoCard title="Endpoints">
              {status?.endpoints?.length ? (
                <Table size="small" aria-label="Endpoints">
                  <TableHead>
                    <TableRow>
                      <TableCell>Name</TableCell>
                      <TableCell>Host</TableCell>
                      <TableCell>Port</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {status.endpoints.map(ep => (
                      <TableRow key={ep.name}>
                        <TableCell>{ep.name}</TableCell>
                        <TableCell style={{ fontFamily: 'monospace' }}>{ep.host}</TableCell>
                        <TableCell>{ep.port}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              ) : (
                <Typography variant="body2" color="textSecondary">
                  No endpoints yet; they appear when the operator has created the services.
                </Typography>
              )}
            </InfoCard>
          </Box>
          <Box mt={3}>
            <InfoCard title="Connect">
              <ConnectPanel instance={instance} />
              <Box mt={2}>
                <ConnectionDetails instanceRef={instanceRef} allowed={allowedBoth(connection, actions?.readConnection)} ready={status?.phase === 'Ready'} />
              </Box>
            </InfoCard>
          </Box>
        </Grid>
        <Grid item xs={12}>
          <MembersCard members={status?.members} />
        </Grid>
        {!deleted && (
          <Grid item xs={12}>
            <BackupsCard instanceRef={instanceRef} instance={instance} engine={engineInfo} actions={actions} onRuns={setRuns} />
          </Grid>
        )}
        {/* an engine without backup objects says so once, in the Backups card */}
        {!deleted && !(engineInfo?.spec.backup && !engineInfo.spec.backup.onDemand && !engineInfo.spec.backup.schedule) && (
          <Grid item xs={12}>
            <SchedulesCard instanceRef={instanceRef} instance={instance} engine={engineInfo} actions={actions} />
          </Grid>
        )}
        <Grid item xs={12}>
          <InfoCard title="Events">
            <InstanceEvents instanceRef={instanceRef} />
          </InfoCard>
        </Grid>
        <Grid item xs={12}>
          <InfoCard title="Lifecycle">
            <LifecycleTimeline entries={buildTimeline(transitions, requests, { backups: runs, instance })} />
          </InfoCard>
        </Grid>
        <Grid item xs={12}>
          <Accordion>
            <AccordionSummary expandIcon={<ExpandMoreIcon />}>
              <Typography>Raw operator status ({status?.source?.kind ?? 'unknown kind'})</Typography>
            </AccordionSummary>
            <AccordionDetails style={{ display: 'block' }}>
              <CodeSnippet text={JSON.stringify(status?.operatorStatus ?? {}, null, 2)} language="json" showCopyCodeButton />
              {status?.conditions && status.conditions.length > 0 && (
                <Box mt={2}>
                  <Typography variant="subtitle2">Conditions</Typography>
                  <CodeSnippet text={JSON.stringify(status.conditions, null, 2)} language="json" />
                </Box>
              )}
            </AccordionDetails>
          </Accordion>
        </Grid>
      </Grid>
    </Content>
  );
}
