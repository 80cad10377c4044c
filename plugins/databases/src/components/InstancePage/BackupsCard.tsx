import { useApi } from '@backstage/core-plugin-api';
import { usePermission } from '@backstage/plugin-permission-react';
import {
  backupRunTime,
  databasesBackupCreatePermission,
  databasesBackupDeletePermission,
  databasesInstanceCreatePermission,
  instanceResourceRef,
  type DatabaseBackup,
  type DatabaseEngine,
  type DatabaseInstance,
  type InstanceActions,
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
  IconButton,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@material-ui/core';
import DeleteIcon from '@material-ui/icons/Delete';
import { useEffect, useState } from 'react';
import { databasesApiRef, InstanceRef } from '../../api/types';
import { backupPhaseStyle, formatDuration } from '../../lib/backupPhaseStyle';
import { formatAge } from '../../lib/format';
import { lastBackups } from '../../lib/lastBackups';
import { ErrorExplanation } from '../ErrorExplanation';
import { PhaseChip } from '../PhaseChip';
import { applyBackupChange } from './applyBackupChange';
import { restoreBlocker } from '../../lib/restoreForm';
import { allowedBoth } from '../../lib/allowedBoth';
import { RestoreDialog } from './RestoreDialog';
import { ActionCard } from './ActionCard';
import { ConfirmDeleteDialog } from './ConfirmDeleteDialog';

/** Why "Back up now" is off, or undefined when it is offered. The engine (DatabaseEngine) says first. */
export function backupBlocker(instance: DatabaseInstance, allowed: boolean, engine?: DatabaseEngine): string | undefined {
  const capabilities = engine?.spec.backup;
  if (capabilities && !capabilities.onDemand) {
    return capabilities.reason ?? `${engine!.spec.operator} cannot take a backup on demand.`;
  }
  if (instance.status?.phase === 'Deleting' || instance.metadata.deletionTimestamp) return 'It is being deleted.';
  if (!allowed) return 'You do not have permission to back up this database.';
  return undefined;
}

/** How long a run took, or has been running; empty before it started. */
function duration(backup: DatabaseBackup, now: number): string {
  const start = Date.parse(backup.status?.startTime ?? '');
  if (Number.isNaN(start)) return '';
  const end = Date.parse(backup.status?.completionTime ?? '');
  if (!Number.isNaN(end)) return formatDuration(end - start);
  const phase = backup.status?.phase;
  return phase === 'Running' || phase === 'Pending' ? formatDuration(now - start) : '';
}

/** The newest run that succeeded and the newest that failed, one line above the runs. */
function LastBackups(props: { runs: DatabaseBackup[]; now: number }) {
  const { succeeded, failed } = lastBackups(props.runs);
  const said = (b: DatabaseBackup | undefined) => (b ? `${formatAge(backupRunTime(b), props.now)} ago (${b.metadata.name})` : 'none');
  return (
    <Box mb={1}>
      <Typography variant="body2" data-testid="backups-last">
        Last successful: {said(succeeded)} · last failed: {said(failed)}
      </Typography>
    </Box>
  );
}

/**
 * The instance's backup runs (its DatabaseBackups), live: the backend watches them as the user
 * for as long as the card is on screen, so a run's phase moves without a reload. "Back up now"
 * where the engine's operator can (DatabaseEngine `spec.backup`), and a delete per run whose
 * confirmation says that the stored data is not deleted (no supported operator deletes it).
 */
export function BackupsCard(props: {
  instanceRef: InstanceRef;
  instance: DatabaseInstance;
  engine?: DatabaseEngine;
  /** What the backend says the caller may do (the portal's policy and the cluster's RBAC); unknown: the policy alone. */
  actions?: Pick<InstanceActions, 'backUp' | 'deleteBackups'>;
  /** Told the runs whenever they change (the page's timeline shows them). */
  onRuns?(runs: DatabaseBackup[]): void;
}) {
  const api = useApi(databasesApiRef);
  const { instanceRef, instance, engine, actions, onRuns } = props;
  const resourceRef = instanceResourceRef(instanceRef.cluster, instanceRef.namespace, instanceRef.name);
  const createPermission = usePermission({ permission: databasesBackupCreatePermission, resourceRef });
  const removePermission = usePermission({ permission: databasesBackupDeletePermission, resourceRef });
  // a button only where the cluster would let the request through too (dbaas-edit backs up,
  // only dbaas-admin deletes backups)
  const create = { allowed: allowedBoth(createPermission, actions?.backUp) };
  const remove = { allowed: allowedBoth(removePermission, actions?.deleteBackups) };
  // A restore creates an instance like this one (its cluster, namespace, engine and owner, what
  // the create rules look at): asked on this instance, as the would-be one has no ref yet. The
  // backend asks again on the real request.
  const restoreAllowed = usePermission({ permission: databasesInstanceCreatePermission, resourceRef });
  const capabilities = engine?.spec.backup;
  // an engine whose operator has no backup objects has nothing to list: say why instead
  const none = !!capabilities && !capabilities.onDemand && !capabilities.schedule && !capabilities.restore;
  const methods = capabilities?.methods ?? [];

  const [backups, setBackups] = useState<DatabaseBackup[]>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<unknown>();
  const [notice, setNotice] = useState<string>();
  const [asking, setAsking] = useState(false);
  const [method, setMethod] = useState('');
  const [deleting, setDeleting] = useState<DatabaseBackup>();
  const [restoring, setRestoring] = useState<DatabaseBackup>();

  useEffect(() => {
    if (none) return undefined;
    return api.watchBackups(instanceRef, {
      onList: items => {
        setBackups(items);
        setError(undefined);
      },
      onChange: change => setBackups(list => applyBackupChange(list ?? [], change)),
      onError: setError,
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, none, instanceRef.cluster, instanceRef.namespace, instanceRef.name]);

  useEffect(() => {
    if (backups) onRuns?.(backups);
  }, [backups, onRuns]);

  const blocker = backupBlocker(instance, create.allowed, engine);
  const restoreOff = restoreBlocker(restoreAllowed.allowed, engine);
  const name = instance.metadata.name ?? '';

  const backUp = async (chosen?: string) => {
    setBusy(true);
    setActionError(undefined);
    setNotice(undefined);
    try {
      const { backup } = await api.createBackup(instanceRef, chosen ? { method: chosen } : {});
      // shown at once; the stream brings its phases (and may have brought it already)
      setBackups(list => applyBackupChange(list ?? [], { type: 'ADDED', backup }));
      setAsking(false);
    } catch (e) {
      setActionError(e);
    } finally {
      setBusy(false);
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    const gone = deleting.metadata.name ?? '';
    setBusy(true);
    setActionError(undefined);
    try {
      const answer = await api.deleteBackup(instanceRef, gone);
      setBackups(list => applyBackupChange(list ?? [], { type: 'DELETED', backup: deleting }));
      setNotice(`Deleted ${gone}. ${answer.warnings.length ? answer.warnings.join(' ') : 'The stored backup data is not deleted.'}`);
      setDeleting(undefined);
    } catch (e) {
      setActionError(e);
    } finally {
      setBusy(false);
    }
  };

  const backUpButton = (
    <Button
      variant="outlined"
      color="primary"
      disabled={!!blocker || busy}
      onClick={() => {
        setActionError(undefined);
        if (methods.length > 1) {
          setMethod(methods[0]);
          setAsking(true);
        } else backUp();
      }}
    >
      Back up now
    </Button>
  );

  const now = Date.now();
  /** The list of runs, or why there is none to show. */
  const runs = () => {
    if (none) return null;
    if (error !== undefined && !backups) return <ErrorExplanation error={error} doing={`read the backups of ${name}`} />;
    if (!backups) {
      return (
        <Typography variant="body2" color="textSecondary">
          Reading the backups…
        </Typography>
      );
    }
    if (backups.length === 0) {
      return (
        <Typography variant="body2" color="textSecondary" data-testid="backups-none">
          No backups of {name} yet.
        </Typography>
      );
    }
    return (
      <Table size="small" aria-label="Backups">
        <TableHead>
          <TableRow>
            <TableCell>Backup</TableCell>
            <TableCell>Phase</TableCell>
            <TableCell>Started</TableCell>
            <TableCell>Duration</TableCell>
            <TableCell>Size</TableCell>
            <TableCell>Method</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {backups.map(b => (
            <TableRow key={b.metadata.name} data-testid="backup-row">
              <TableCell style={{ fontFamily: 'monospace' }}>{b.metadata.name}</TableCell>
              <TableCell>
                <PhaseChip
                  phase={b.status?.phase ?? 'Unknown'}
                  reason={[b.status?.reason, b.status?.message].filter(Boolean).join(': ') || undefined}
                  styleOf={backupPhaseStyle}
                />
              </TableCell>
              <TableCell title={b.status?.startTime}>{b.status?.startTime ? `${formatAge(b.status.startTime, now)} ago` : '—'}</TableCell>
              <TableCell>{duration(b, now) || '—'}</TableCell>
              <TableCell>{b.status?.size ?? '—'}</TableCell>
              <TableCell>{b.spec.method ?? 'default'}</TableCell>
              <TableCell padding="none" align="right">
                {b.status?.phase === 'Succeeded' && b.status.restorable && (
                  <Tooltip title={restoreOff ?? `Restore ${b.metadata.name} into a new database`}>
                    <span data-testid={restoreOff ? 'blocked-restore' : undefined}>
                      <Button
                        size="small"
                        color="primary"
                        aria-label={`Restore ${b.metadata.name} into a new database`}
                        disabled={!!restoreOff || busy}
                        onClick={() => setRestoring(b)}
                      >
                        Restore
                      </Button>
                    </span>
                  </Tooltip>
                )}
                <Tooltip title={remove.allowed ? `Delete ${b.metadata.name}` : 'You do not have permission to delete backups of this database.'}>
                  <span>
                    <IconButton
                      size="small"
                      aria-label={`Delete backup ${b.metadata.name}`}
                      disabled={!remove.allowed || busy}
                      onClick={() => {
                        setActionError(undefined);
                        setDeleting(b);
                      }}
                    >
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    );
  };

  return (
    <ActionCard
      title="Backups"
      action={backUpButton}
      blocker={blocker}
      testIds={{ blocked: 'blocked-back-up-now', blocker: 'backup-blocker' }}
      notice={notice ? { text: notice, severity: 'warning', testId: 'backup-notice', onClose: () => setNotice(undefined) } : undefined}
      error={actionError !== undefined && !asking && !deleting ? { error: actionError, doing: `back up ${name}` } : undefined}
    >
      {backups && backups.length > 0 && <LastBackups runs={backups} now={now} />}
      {runs()}

      <Dialog open={asking} onClose={() => setAsking(false)} fullWidth maxWidth="sm" aria-labelledby="backup-dialog-title">
        <DialogTitle id="backup-dialog-title">Back up {name} now</DialogTitle>
        <DialogContent>
          <DialogContentText>{engine?.spec.operator} can take it in several ways; the first is its default.</DialogContentText>
          <TextField select label="Method" id="backup-method" value={method} onChange={e => setMethod(e.target.value)} variant="outlined" margin="dense" fullWidth>
            {methods.map(m => (
              <MenuItem key={m} value={m}>
                {m}
              </MenuItem>
            ))}
          </TextField>
          {actionError !== undefined && (
            <Box mt={2}>
              <ErrorExplanation error={actionError} doing={`back up ${name}`} />
            </Box>
          )}
        </DialogContent>
        <DialogActions>
          {busy && <CircularProgress size={20} />}
          <Button onClick={() => setAsking(false)}>Cancel</Button>
          <Button color="primary" variant="contained" disabled={busy || !method} onClick={() => backUp(method)}>
            Back up
          </Button>
        </DialogActions>
      </Dialog>

      {restoring && (
        <RestoreDialog instanceRef={instanceRef} source={instance} backup={restoring} engine={engine} onClose={() => setRestoring(undefined)} />
      )}

      <ConfirmDeleteDialog
        name={deleting?.metadata.name}
        title={`Delete backup ${deleting?.metadata.name}?`}
        warningTestId="backup-delete-warning"
        warning={
          <>
            This deletes the backup object ({deleting?.status?.source?.kind ?? 'the operator object'} of{' '}
            {deleting?.status?.source?.operator ?? 'its operator'}) only. <strong>The stored backup data is not deleted</strong>
            : no supported operator deletes it with the object. Remove it from its storage
            {deleting?.status?.location ? ` (${deleting.status.location})` : ''} yourself if it is no longer needed.
          </>
        }
        confirmLabel="Delete backup object"
        busy={busy}
        error={actionError}
        onCancel={() => setDeleting(undefined)}
        onConfirm={confirmDelete}
      />
    </ActionCard>
  );
}
