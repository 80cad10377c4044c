import { Content, ContentHeader, InfoCard, Progress } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { parseEntityRef } from '@backstage/catalog-model';
import {
  DatabaseEngine,
  DatabasesCluster,
  PortalInstance,
} from '@internal/plugin-databases-common';
import {
  Box,
  Button,
  CircularProgress,
  Grid,
  MenuItem,
  Typography,
} from '@material-ui/core';
import { Alert } from '@material-ui/lab';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { DatabasesApiError } from '../../api/DatabasesApiError';
import { databasesApiRef } from '../../api/types';
import { useBasePath } from '../../hooks/useBasePath';
import { instancePath } from '../../lib/databasesPath';
import {
  CUSTOM_SIZE,
  engineDefaults,
  engineSizes,
  RequestFormErrors,
  RequestFormField,
  RequestFormValues,
  serverErrorsToFields,
  sizeLabel,
  sizeValues,
  toCreateRequest,
  topologyReplicas,
  validateRequest,
} from '../../lib/requestForm';
import { ErrorExplanation } from '../ErrorExplanation';
import { DryRunPreview } from './DryRunPreview';
import { FormField } from './FormField';
import { useOwnerOptions } from './useOwnerOptions';

const EMPTY: RequestFormValues = {
  cluster: '',
  engine: '',
  name: '',
  namespace: '',
  owner: '',
  topology: '',
  version: '',
  replicas: '1',
  // Sizes, like everything engine-specific, arrive with the engine the user picks.
  size: '',
  storage: '',
  cpu: '',
  memory: '',
};

/**
 * Request a database: the choices come from the cluster's DatabaseEngines; the form validates
 * as the user types, previews the result with a server dry run, then creates it.
 *
 * @public
 */
export function RequestDatabaseForm() {
  const api = useApi(databasesApiRef);
  const basePath = useBasePath();
  const navigate = useNavigate();
  const location = useLocation();
  const entityRef = new URLSearchParams(location.search).get('entity') ?? undefined;

  const [values, setValues] = useState<RequestFormValues>({ ...EMPTY, entityRef });
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [clusters, setClusters] = useState<DatabasesCluster[]>();
  const [engines, setEngines] = useState<DatabaseEngine[]>();
  const [loadError, setLoadError] = useState<unknown>();
  const [serverErrors, setServerErrors] = useState<RequestFormErrors>({});
  const [requestError, setRequestError] = useState<unknown>();
  const [preview, setPreview] = useState<{ key: string; result: PortalInstance }>();
  const [busy, setBusy] = useState<'preview' | 'create'>();
  const { owners, fromMembership, loading: ownersLoading } = useOwnerOptions();

  useEffect(() => {
    api.listClusters().then(list => {
      setClusters(list);
      setValues(v => (v.cluster || list.length === 0 ? v : { ...v, cluster: list[0].name }));
    }, setLoadError);
  }, [api]);

  useEffect(() => {
    if (!values.cluster) return;
    setEngines(undefined);
    api.listEngines(values.cluster).then(r => setEngines(r.items), setLoadError);
  }, [api, values.cluster]);

  useEffect(() => {
    if (owners.length > 0) {
      // Default the namespace to the team's name: the usual convention, and editable.
      setValues(v => (v.owner ? v : { ...v, owner: owners[0], namespace: v.namespace || parseEntityRef(owners[0]).name }));
    }
  }, [owners]);

  const engine = engines?.find(e => e.spec.engine === values.engine);
  const errors = useMemo(() => validateRequest(values, engine), [values, engine]);
  const valid = Object.keys(errors).length === 0;
  const key = JSON.stringify(values);
  const shownErrors: RequestFormErrors = { ...errors, ...serverErrors };

  const onChange = (field: RequestFormField, value: string) => {
    setTouched(t => new Set(t).add(field));
    setServerErrors(({ [field]: _dropped, ...rest }) => rest);
    setRequestError(undefined);
    setValues(v => {
      const next = { ...v, [field]: value };
      if (field === 'engine') {
        const picked = engines?.find(e => e.spec.engine === value);
        if (picked) Object.assign(next, engineDefaults(picked));
      }
      if (field === 'size') {
        const preset = engineSizes(engine).find(s => s.name === value);
        if (preset) Object.assign(next, sizeValues(preset));
      }
      if (field === 'topology' && engine) next.replicas = topologyReplicas(engine, value);
      if (field === 'owner' && !touched.has('namespace')) next.namespace = parseEntityRef(value).name;
      return next;
    });
  };

  const send = async (dryRun: boolean) => {
    setSubmitted(true);
    if (!valid) return;
    setBusy(dryRun ? 'preview' : 'create');
    setRequestError(undefined);
    try {
      const result = await api.createInstance(values.cluster, values.namespace, toCreateRequest(values, dryRun, engine));
      setServerErrors({});
      if (dryRun) setPreview({ key, result });
      else navigate(instancePath(basePath, { cluster: values.cluster, namespace: values.namespace, name: values.name }));
    } catch (e) {
      setRequestError(e);
      setServerErrors(e instanceof DatabasesApiError ? serverErrorsToFields(e.causes) : {});
      if (dryRun) setPreview(undefined);
    } finally {
      setBusy(undefined);
    }
  };

  const show = (field: string) => submitted || touched.has(field) || field in serverErrors;
  const fieldProps = { values, errors: shownErrors, onChange };

  if (loadError) {
    return (
      <Content>
        <ErrorExplanation error={loadError} doing="load the clusters and their engines" />
      </Content>
    );
  }

  return (
    <Content>
      <ContentHeader title="Request a database" />
      {entityRef && (
        <Box mb={2}>
          <Alert severity="info">
            For <strong>{entityRef}</strong>: the database will show on its catalog page.
          </Alert>
        </Box>
      )}
      <Grid container spacing={3}>
        <Grid item xs={12} md={7}>
          <InfoCard title="What do you need?">
            {(!clusters || ownersLoading) && <Progress />}
            <form
              noValidate
              onSubmit={e => {
                e.preventDefault();
                send(preview?.key !== key);
              }}
            >
              <Grid container spacing={2}>
                <Grid item xs={12} sm={6}>
                  <FormField field="cluster" label="Cluster" select show={show('cluster')} {...fieldProps}>
                    {(clusters ?? []).map(c => (
                      <MenuItem key={c.name} value={c.name}>
                        {c.title ?? c.name}
                      </MenuItem>
                    ))}
                  </FormField>
                </Grid>
                <Grid item xs={12} sm={6}>
                  <FormField
                    field="engine"
                    label="Engine"
                    select
                    show={show('engine')}
                    helperText={engine ? `${engine.spec.operator}, capability level ${engine.spec.capabilityLevel}` : undefined}
                    disabled={!engines}
                    {...fieldProps}
                  >
                    {(engines ?? []).map(e => (
                      <MenuItem key={e.spec.engine} value={e.spec.engine} disabled={!e.status?.installed}>
                        {e.spec.engine}
                        {e.status?.installed ? '' : ' (operator not installed)'}
                      </MenuItem>
                    ))}
                  </FormField>
                </Grid>
                <Grid item xs={12} sm={6}>
                  <FormField field="topology" label="Topology" select show={show('topology')} disabled={!engine} {...fieldProps}>
                    {(engine?.spec.topologies ?? []).map(t => (
                      <MenuItem key={t} value={t}>
                        {t}
                      </MenuItem>
                    ))}
                  </FormField>
                </Grid>
                <Grid item xs={12} sm={6}>
                  <FormField field="version" label="Version" select show={show('version')} disabled={!engine} {...fieldProps}>
                    {(engine?.spec.versions ?? []).map(v => (
                      <MenuItem key={v} value={v}>
                        {v}
                      </MenuItem>
                    ))}
                  </FormField>
                </Grid>
                <Grid item xs={12} sm={6}>
                  <FormField field="name" label="Name" show={show('name')} helperText="Lower-case, e.g. orders-db" {...fieldProps} />
                </Grid>
                <Grid item xs={12} sm={6}>
                  <FormField field="replicas" label="Replicas" show={show('replicas')} {...fieldProps} />
                </Grid>
                <Grid item xs={12} sm={6}>
                  <FormField
                    field="owner"
                    label="Owner (team)"
                    select
                    show={show('owner')}
                    helperText={fromMembership ? 'Your teams' : 'You belong to no team; the platform decides who may own it'}
                    {...fieldProps}
                  >
                    {owners.map(o => (
                      <MenuItem key={o} value={o}>
                        {o}
                      </MenuItem>
                    ))}
                  </FormField>
                </Grid>
                <Grid item xs={12} sm={6}>
                  <FormField field="namespace" label="Namespace" show={show('namespace')} {...fieldProps} />
                </Grid>
                <Grid item xs={12} sm={6}>
                  <FormField field="size" label="Size" select show={show('size')} disabled={!engine} {...fieldProps}>
                    {engineSizes(engine).map(s => (
                      <MenuItem key={s.name} value={s.name}>
                        {sizeLabel(s)}
                      </MenuItem>
                    ))}
                    <MenuItem value={CUSTOM_SIZE}>Custom</MenuItem>
                  </FormField>
                </Grid>
                <Grid item xs={12} sm={6}>
                  <FormField field="storage" label="Storage" show={show('storage')} disabled={values.size !== CUSTOM_SIZE} {...fieldProps} />
                </Grid>
                <Grid item xs={12} sm={6}>
                  <FormField field="cpu" label="CPU request" show={show('cpu')} disabled={values.size !== CUSTOM_SIZE} {...fieldProps} />
                </Grid>
                <Grid item xs={12} sm={6}>
                  <FormField field="memory" label="Memory request" show={show('memory')} disabled={values.size !== CUSTOM_SIZE} {...fieldProps} />
                </Grid>
              </Grid>
              {requestError !== undefined && (
                <Box mt={2}>
                  <ErrorExplanation error={requestError} doing={preview?.key === key ? 'create the database' : 'check the request'} />
                </Box>
              )}
              {serverErrors.general && (
                <Box mt={2}>
                  <Alert severity="error">{serverErrors.general}</Alert>
                </Box>
              )}
              <Box mt={2} display="flex" style={{ gap: 8 }} alignItems="center">
                <Button type="button" variant="outlined" color="primary" disabled={!!busy} onClick={() => send(true)}>
                  Preview
                </Button>
                <Button
                  type="button"
                  variant="contained"
                  color="primary"
                  disabled={!!busy || !valid || preview?.key !== key}
                  onClick={() => send(false)}
                >
                  Create
                </Button>
                {busy && <CircularProgress size={20} />}
                {!busy && preview?.key !== key && (
                  <Typography variant="body2" color="textSecondary">
                    Preview first: the cluster checks the request without creating anything.
                  </Typography>
                )}
              </Box>
            </form>
          </InfoCard>
        </Grid>
        <Grid item xs={12} md={5}>
          <InfoCard title="What will be created">
            <DryRunPreview result={preview?.key === key ? preview.result : undefined} />
          </InfoCard>
        </Grid>
      </Grid>
    </Content>
  );
}
