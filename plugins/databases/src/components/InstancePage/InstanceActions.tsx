import { useApi } from '@backstage/core-plugin-api';
import type { DatabaseEngine, DatabaseInstance, PortalInstance } from '@internal/plugin-databases-common';
import {
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  MenuItem,
  TextField,
  Tooltip,
} from '@material-ui/core';
import { ReactNode, useState } from 'react';
import { databasesApiRef, InstanceRef } from '../../api/types';
import { replicaRule, replicasProblem } from '../../lib/requestForm';
import { ErrorExplanation } from '../ErrorExplanation';

/** The members a switchover can move the primary to: the ready ones that are not primary. */
export const switchoverTargets = (instance: DatabaseInstance): string[] =>
  (instance.status?.members ?? []).filter(m => m.role !== 'primary' && m.ready).map(m => m.name);

/** Why an action is not possible right now, or undefined when it is. */
export function actionBlockers(
  instance: DatabaseInstance,
  permissions: { update: boolean; delete: boolean },
  engine?: DatabaseEngine,
): { scale?: string; upgrade?: string; delete?: string; protection?: string; pause?: string; switchover?: string } {
  const deleting = instance.status?.phase === 'Deleting' || !!instance.metadata.deletionTimestamp;
  const gone = deleting ? 'It is being deleted.' : undefined;
  const noUpdate = permissions.update ? undefined : 'You do not have permission to change this database.';
  return {
    scale: gone ?? noUpdate,
    upgrade: gone ?? noUpdate,
    protection: gone ?? noUpdate,
    // a paused instance can always be resumed; only an engine that says it cannot pause blocks a pause
    pause:
      gone ??
      noUpdate ??
      (!instance.spec.paused && engine?.spec.pausable === false
        ? `${engine.spec.operator} has no way to pause a database.`
        : undefined),
    switchover: gone ?? noUpdate ?? switchoverBlocker(instance, engine),
    delete:
      gone ??
      (permissions.delete ? undefined : 'You do not have permission to delete this database.') ??
      (instance.spec.deletionProtection ? 'Deletion protection is on. Turn it off first.' : undefined),
  };
}

/** Why the primary cannot be moved now: the operator has no switchover, or no other member can take it. */
function switchoverBlocker(instance: DatabaseInstance, engine?: DatabaseEngine): string | undefined {
  if (engine?.spec.switchover === false) return `${engine.spec.operator} has no way to move the primary.`;
  const members = instance.status?.members ?? [];
  if (!members.some(m => m.role === 'primary')) return 'Its members have no primary to move (all are equal, or none is known yet).';
  if (!switchoverTargets(instance).length) return 'No other member is ready to take over.';
  return undefined;
}

function ActionButton(props: { label: string; blocker?: string; onClick: () => void; color?: 'primary' | 'secondary' }) {
  const button = (
    <Button variant="outlined" color={props.color ?? 'primary'} disabled={!!props.blocker} onClick={props.onClick}>
      {props.label}
    </Button>
  );
  // A disabled button fires no events: the span carries the tooltip that explains why.
  return props.blocker ? (
    <Tooltip title={props.blocker}>
      <span data-testid={`blocked-${props.label.toLowerCase()}`} aria-label={props.blocker}>
        {button}
      </span>
    </Tooltip>
  ) : (
    button
  );
}

function SelectField(props: { label: string; id: string; value: string; options: readonly string[]; onChange: (value: string) => void }) {
  return (
    <TextField
      select
      label={props.label}
      id={props.id}
      value={props.value}
      onChange={e => props.onChange(e.target.value)}
      variant="outlined"
      margin="dense"
      fullWidth
    >
      {props.options.map(v => (
        <MenuItem key={v} value={v}>
          {v}
        </MenuItem>
      ))}
    </TextField>
  );
}

function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  confirmDisabled?: boolean;
  busy: boolean;
  error?: unknown;
  doing: string;
  onConfirm: () => void;
  onClose: () => void;
  danger?: boolean;
}) {
  return (
    <Dialog open={props.open} onClose={props.onClose} fullWidth maxWidth="sm" aria-labelledby="action-dialog-title">
      <DialogTitle id="action-dialog-title">{props.title}</DialogTitle>
      <DialogContent>
        {props.children}
        {props.error !== undefined && (
          <Box mt={2}>
            <ErrorExplanation error={props.error} doing={props.doing} />
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        {props.busy && <CircularProgress size={20} />}
        <Button onClick={props.onClose}>Cancel</Button>
        <Button
          onClick={props.onConfirm}
          color={props.danger ? 'secondary' : 'primary'}
          variant="contained"
          disabled={props.busy || props.confirmDisabled}
        >
          {props.confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * Scale, upgrade, deletion protection, pause/resume, switch primary and delete, each confirmed in a dialog; disabled with the
 * reason when a permission or deletion protection forbids it.
 */
export function InstanceActions(props: {
  instanceRef: InstanceRef;
  instance: DatabaseInstance;
  /** The instance's engine as its cluster reports it (versions offered, replica rules); undefined while loading. */
  engine?: DatabaseEngine;
  permissions: { update: boolean; delete: boolean };
  /**
   * Called as a change is sent; what it returns is given the instance the answer holds (the
   * page decides whether the live stream has already shown a newer state).
   */
  beginChange: () => (result: PortalInstance) => void;
  onDeleted: () => void;
}) {
  const api = useApi(databasesApiRef);
  const { instance } = props;
  const blockers = actionBlockers(instance, props.permissions, props.engine);
  const [open, setOpen] = useState<'scale' | 'upgrade' | 'delete' | 'protection' | 'pause' | 'switchover'>();
  const [target, setTarget] = useState('');
  const [replicas, setReplicas] = useState(String(instance.spec.replicas ?? 1));
  const [version, setVersion] = useState(instance.spec.version ?? '');
  const [confirmName, setConfirmName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const name = instance.metadata.name ?? '';
  const protectedNow = !!instance.spec.deletionProtection;
  const pausedNow = !!instance.spec.paused;

  const openDialog = (which: typeof open) => {
    setError(undefined);
    setReplicas(String(instance.spec.replicas ?? 1));
    setVersion(instance.spec.version ?? '');
    setConfirmName('');
    setTarget(switchoverTargets(instance)[0] ?? '');
    setOpen(which);
  };

  const run = async (action: () => Promise<PortalInstance | void>, deleted = false) => {
    setBusy(true);
    setError(undefined);
    try {
      const show = props.beginChange();
      const result = await action();
      setOpen(undefined);
      if (deleted) props.onDeleted();
      else if (result?.instance) show(result);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const rv = instance.metadata.resourceVersion;
  const replicasError = replicasProblem(replicas, replicaRule(props.engine, instance.spec.topology ?? ''));
  const replicasValid = replicasError === undefined;
  const versions = props.engine?.spec.versions ?? [];

  return (
    <Box display="flex" flexWrap="wrap" style={{ gap: 8 }}>
      <ActionButton label="Scale" blocker={blockers.scale} onClick={() => openDialog('scale')} />
      <ActionButton label="Upgrade" blocker={blockers.upgrade} onClick={() => openDialog('upgrade')} />
      <ActionButton
        label={protectedNow ? 'Unprotect' : 'Protect'}
        blocker={blockers.protection}
        onClick={() => openDialog('protection')}
      />
      <ActionButton
        label={pausedNow ? 'Resume' : 'Pause'}
        blocker={blockers.pause}
        onClick={() => openDialog('pause')}
      />
      <ActionButton label="Switch primary" blocker={blockers.switchover} onClick={() => openDialog('switchover')} />
      <ActionButton label="Delete" color="secondary" blocker={blockers.delete} onClick={() => openDialog('delete')} />

      <ConfirmDialog
        open={open === 'scale'}
        title={`Scale ${name}`}
        confirmLabel="Scale"
        confirmDisabled={!replicasValid}
        busy={busy}
        error={error}
        doing={`scale ${name}`}
        onClose={() => setOpen(undefined)}
        onConfirm={() => run(() => api.updateInstance(props.instanceRef, { replicas: Number(replicas), resourceVersion: rv }))}
      >
        <DialogContentText>
          Now {instance.status?.replicas?.ready ?? '?'} of {instance.spec.replicas ?? '?'} replicas are ready. The operator
          adds or removes members one at a time; the phase shows Updating until it is done.
        </DialogContentText>
        <TextField
          label="Replicas"
          id="scale-replicas"
          value={replicas}
          onChange={e => setReplicas(e.target.value)}
          error={!replicasValid}
          helperText={replicasError ?? ' '}
          variant="outlined"
          margin="dense"
        />
      </ConfirmDialog>

      <ConfirmDialog
        open={open === 'upgrade'}
        title={`Upgrade ${name}`}
        confirmLabel="Upgrade"
        confirmDisabled={!version || version === instance.spec.version}
        busy={busy}
        error={error}
        doing={`upgrade ${name}`}
        onClose={() => setOpen(undefined)}
        onConfirm={() => run(() => api.updateInstance(props.instanceRef, { version, resourceVersion: rv }))}
      >
        <DialogContentText>
          Running {instance.status?.version ?? instance.spec.version ?? 'an unknown version'}. The operator rolls the new
          version out member by member.
        </DialogContentText>
        <SelectField label="Version" id="upgrade-version" value={version} options={versions} onChange={setVersion} />
      </ConfirmDialog>

      <ConfirmDialog
        open={open === 'protection'}
        title={protectedNow ? `Turn off deletion protection for ${name}` : `Protect ${name} from deletion`}
        confirmLabel={protectedNow ? 'Turn off' : 'Protect'}
        busy={busy}
        error={error}
        doing={`change the deletion protection of ${name}`}
        onClose={() => setOpen(undefined)}
        onConfirm={() =>
          run(() => api.updateInstance(props.instanceRef, { deletionProtection: !protectedNow, resourceVersion: rv }))
        }
      >
        <DialogContentText>
          {protectedNow
            ? 'Without protection, anyone allowed to delete it can do so.'
            : 'While protected, nobody can delete it, through the portal or kubectl.'}
        </DialogContentText>
      </ConfirmDialog>

      <ConfirmDialog
        open={open === 'pause'}
        title={pausedNow ? `Resume ${name}` : `Pause ${name}`}
        confirmLabel={pausedNow ? 'Resume' : 'Pause'}
        busy={busy}
        error={error}
        doing={`${pausedNow ? 'resume' : 'pause'} ${name}`}
        onClose={() => setOpen(undefined)}
        // no resourceVersion: pausing is an intent that holds whatever else changed meanwhile (a
        // rollout changes the instance every few seconds, and each change would refuse the click)
        onConfirm={() => run(() => api.updateInstance(props.instanceRef, { paused: !pausedNow }))}
      >
        <DialogContentText>
          {pausedNow
            ? 'The operator takes care of it again and applies any change that waited; the phase leaves Paused once it has.'
            : 'The operator is told to leave it alone: depending on the operator its servers stop while its data stays (hibernation), or it keeps serving but no change is applied until it is resumed. The phase shows Paused.'}
        </DialogContentText>
      </ConfirmDialog>

      <ConfirmDialog
        open={open === 'switchover'}
        title={`Switch the primary of ${name}`}
        confirmLabel="Switch"
        confirmDisabled={!target}
        busy={busy}
        error={error}
        doing={`switch the primary of ${name}`}
        onClose={() => setOpen(undefined)}
        // no resourceVersion: like a pause, an intent that holds whatever the status did meanwhile
        onConfirm={() => run(() => api.updateInstance(props.instanceRef, { primary: target }))}
      >
        <DialogContentText>
          Now {instance.status?.members?.find(m => m.role === 'primary')?.name ?? 'unknown'} is the primary. The operator
          moves it to the member you pick (a switchover: clients of the primary reconnect); the phase shows Updating until
          it reports the new primary.
        </DialogContentText>
        <SelectField label="New primary" id="switchover-target" value={target} options={switchoverTargets(instance)} onChange={setTarget} />
      </ConfirmDialog>

      <ConfirmDialog
        open={open === 'delete'}
        title={`Delete ${name}?`}
        confirmLabel="Delete"
        danger
        confirmDisabled={confirmName !== name}
        busy={busy}
        error={error}
        doing={`delete ${name}`}
        onClose={() => setOpen(undefined)}
        onConfirm={() => run(() => api.deleteInstance(props.instanceRef), true)}
      >
        <DialogContentText>
          This deletes the database and, depending on the operator, its data. Type <strong>{name}</strong> to confirm.
        </DialogContentText>
        <TextField
          label="Name"
          id="delete-confirm"
          value={confirmName}
          onChange={e => setConfirmName(e.target.value)}
          variant="outlined"
          margin="dense"
          fullWidth
        />
      </ConfirmDialog>
    </Box>
  );
}
