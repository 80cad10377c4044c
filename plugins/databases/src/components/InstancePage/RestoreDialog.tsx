import { useApi } from '@backstage/core-plugin-api';
import {
  ANNOTATION_OWNER,
  type DatabaseBackup,
  type DatabaseEngine,
  type DatabaseInstance,
} from '@internal/plugin-databases-common';
import {
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  Grid,
  Radio,
  RadioGroup,
  TextField,
} from '@material-ui/core';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { databasesApiRef, type InstanceRef } from '../../api/types';
import { useBasePath } from '../../hooks/useBasePath';
import { instancePath } from '../../lib/databasesPath';
import {
  restoreDefaults,
  restoreVersion,
  toRestoreRequest,
  toUtcInput,
  validateRestore,
  type RestoreFormValues,
} from '../../lib/restoreForm';
import { ErrorExplanation } from '../ErrorExplanation';

/** A field the restore copies from the source as it is, shown so the user sees what they get. */
function Copied(props: { label: string; value?: string | number }) {
  return (
    <TextField
      id={`restore-${props.label.toLowerCase().replace(/[^a-z]+/g, '-')}`}
      label={props.label}
      value={props.value ?? '—'}
      disabled
      fullWidth
      variant="outlined"
      margin="dense"
      helperText="As the source"
    />
  );
}

/**
 * "Restore into a new database": a create request prefilled from the source instance, with
 * `spec.restoreFrom` naming the backup, or, where the engine can stop a restore at a point in
 * time (DatabaseEngine `spec.backup.pointInTime`), the source instance and a UTC time. None of
 * the operators restores in place, so it is always a new instance. It goes through the
 * backend's create route as the user; the apiserver refuses what is wrong (a 422 whose words
 * are shown here) and asks `get` on the backup as the user. On success, the new instance's page.
 */
export function RestoreDialog(props: {
  instanceRef: InstanceRef;
  source: DatabaseInstance;
  backup: DatabaseBackup;
  engine?: DatabaseEngine;
  onClose(): void;
}) {
  const { instanceRef, source, backup, engine, onClose } = props;
  const api = useApi(databasesApiRef);
  const navigate = useNavigate();
  const basePath = useBasePath();
  const [values, setValues] = useState<RestoreFormValues>(() => restoreDefaults(source, backup, engine));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [submitted, setSubmitted] = useState(false);
  // the "not in the future" bound moves with the clock: checked against now at every render
  const errors = useMemo(() => validateRestore(values, source, engine, Date.now()), [values, source, engine]);
  const offersTime = !!engine?.spec.backup?.pointInTime;
  const backupName = backup.metadata.name ?? '';
  const sourceName = source.metadata.name ?? '';

  const set = (field: keyof RestoreFormValues, value: string) => {
    setError(undefined);
    setValues(v => ({ ...v, [field]: value }));
  };

  const restore = async () => {
    setSubmitted(true);
    if (Object.keys(errors).length > 0) return;
    setBusy(true);
    setError(undefined);
    try {
      const created = await api.createInstance(instanceRef.cluster, instanceRef.namespace, toRestoreRequest(source, backup, values, engine));
      navigate(instancePath(basePath, { cluster: created.cluster, namespace: instanceRef.namespace, name: values.name }));
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="restore-dialog-title">
      <DialogTitle id="restore-dialog-title">Restore into a new database</DialogTitle>
      <DialogContent>
        <DialogContentText>
          A new {source.spec.engine} database is created from{' '}
          {values.mode === 'time' ? (
            <>
              the backups of <strong>{sourceName}</strong>, stopped at the time below
            </>
          ) : (
            <>
              backup <strong>{backupName}</strong> of {sourceName}
            </>
          )}
          . {sourceName} itself is not changed. The new database is Provisioning (Restoring) until its data is in.
        </DialogContentText>
        <Grid container spacing={1}>
          <Grid item xs={12} sm={6}>
            <TextField
              id="restore-name"
              label="Name"
              value={values.name}
              onChange={e => set('name', e.target.value)}
              error={!!errors.name}
              helperText={errors.name ?? 'Of the new database'}
              fullWidth
              variant="outlined"
              margin="dense"
            />
          </Grid>
          <Grid item xs={12} sm={6}>
            <TextField
              id="restore-storage"
              label="Storage"
              value={values.storage}
              onChange={e => set('storage', e.target.value)}
              error={!!errors.storage}
              helperText={errors.storage ?? 'At least what the data needs'}
              fullWidth
              variant="outlined"
              margin="dense"
            />
          </Grid>
          <Grid item xs={6} sm={3}>
            <Copied label="Engine" value={source.spec.engine} />
          </Grid>
          <Grid item xs={6} sm={3}>
            <Copied label="Topology" value={source.spec.topology} />
          </Grid>
          <Grid item xs={6} sm={3}>
            <Copied label="Version" value={restoreVersion(source, engine)} />
          </Grid>
          <Grid item xs={6} sm={3}>
            <Copied label="Replicas" value={source.spec.replicas} />
          </Grid>
          <Grid item xs={12}>
            <Copied label="Owner (team)" value={source.metadata.annotations?.[ANNOTATION_OWNER]} />
          </Grid>
        </Grid>
        {offersTime && (
          <Box mt={1}>
            <RadioGroup
              aria-label="What to restore"
              value={values.mode}
              onChange={e => set('mode', e.target.value as RestoreFormValues['mode'])}
            >
              <FormControlLabel value="time" control={<Radio color="primary" />} label={`${sourceName} as it was at a point in time`} />
              <FormControlLabel value="exact" control={<Radio color="primary" />} label={`Exactly backup ${backupName}`} />
            </RadioGroup>
            {values.mode === 'time' && (
              <TextField
                id="restore-point-in-time"
                label="Point in time (UTC)"
                type="datetime-local"
                value={values.pointInTime}
                onChange={e => set('pointInTime', e.target.value)}
                error={!!errors.pointInTime}
                helperText={errors.pointInTime ?? `UTC; not in the future${source.status?.backup?.firstRecoverabilityPoint ? `, not before ${source.status.backup.firstRecoverabilityPoint}` : ''}`}
                InputLabelProps={{ shrink: true }}
                // seconds, and no later than now (the browser's picker greys the future out; the check above says it)
                inputProps={{ step: 1, max: toUtcInput(new Date().toISOString()) }}
                fullWidth
                variant="outlined"
                margin="dense"
              />
            )}
          </Box>
        )}
        {errors.owner && (
          <Box mt={1} color="error.main" data-testid="restore-owner-error">
            {errors.owner}
          </Box>
        )}
        {error !== undefined && (
          <Box mt={2}>
            <ErrorExplanation error={error} doing={`restore ${backupName} into ${values.name}`} />
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        {busy && <CircularProgress size={20} />}
        <Button onClick={onClose}>Cancel</Button>
        <Button color="primary" variant="contained" disabled={busy || (submitted && Object.keys(errors).length > 0)} onClick={restore}>
          Restore
        </Button>
      </DialogActions>
    </Dialog>
  );
}
