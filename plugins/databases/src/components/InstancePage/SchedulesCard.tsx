import { useApi } from '@backstage/core-plugin-api';
import { usePermission } from '@backstage/plugin-permission-react';
import {
  databasesScheduleUpdatePermission,
  instanceResourceRef,
  type DatabaseBackupSchedule,
  type DatabaseEngine,
  type DatabaseInstance,
  type InstanceActions,
  type UpdateScheduleRequest,
} from '@internal/plugin-databases-common';
import {
  Button,
  IconButton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@material-ui/core';
import DeleteIcon from '@material-ui/icons/Delete';
import EditIcon from '@material-ui/icons/Edit';
import { useEffect, useState } from 'react';
import { databasesApiRef, InstanceRef } from '../../api/types';
import { allowedBoth } from '../../lib/allowedBoth';
import { applyListChange } from '../../lib/applyListChange';
import { formatAge } from '../../lib/format';
import { retentionText } from '../../lib/retentionText';
import { ErrorExplanation } from '../ErrorExplanation';
import { ActionCard } from './ActionCard';
import { ConfirmDeleteDialog } from './ConfirmDeleteDialog';
import { ScheduleDialog, type ScheduleForm } from './ScheduleDialog';

/** Why schedules cannot be added, or undefined when they can. The engine (DatabaseEngine) says first. */
export function scheduleBlocker(instance: DatabaseInstance, allowed: boolean, engine?: DatabaseEngine): string | undefined {
  const capabilities = engine?.spec.backup;
  if (capabilities && !capabilities.schedule) {
    return capabilities.scheduleReason ?? capabilities.reason ?? `${engine!.spec.operator} cannot run backups on a schedule.`;
  }
  if (instance.status?.phase === 'Deleting' || instance.metadata.deletionTimestamp) return 'It is being deleted.';
  if (!allowed) return 'You do not have permission to change the backup schedules of this database.';
  return undefined;
}

/** What changed between the schedule and the form: only that is sent (a merge patch). */
export function scheduleChange(schedule: DatabaseBackupSchedule, form: ScheduleForm): UpdateScheduleRequest {
  const retention = form.retention.trim();
  return {
    ...(form.schedule.trim() !== schedule.spec.schedule && { schedule: form.schedule.trim() }),
    ...(form.suspend !== (schedule.spec.suspend ?? false) && { suspend: form.suspend }),
    ...(retention !== (schedule.spec.retention ?? '') && { retention: retention || null }),
  };
}

const byName = (a: DatabaseBackupSchedule, b: DatabaseBackupSchedule) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');

/** `in 5h` / `5h ago` from now. */
const relative = (time: string | undefined, now: number) => {
  if (!time) return '—';
  return Date.parse(time) > now ? `in ${formatAge(new Date(now).toISOString(), Date.parse(time))}` : `${formatAge(time, now)} ago`;
};

/**
 * The instance's backup schedules (DatabaseBackupSchedules), live: each with its cron, what its
 * last run did and when the next is due, as the operator reports them. Add, change (cron,
 * suspend, retention) and delete where the engine's operator has schedules this API serves, the
 * portal's policy (`databases.schedule.update`) and the cluster's RBAC allow it.
 */
export function SchedulesCard(props: {
  instanceRef: InstanceRef;
  instance: DatabaseInstance;
  engine?: DatabaseEngine;
  actions?: Pick<InstanceActions, 'createSchedule' | 'updateSchedules' | 'deleteSchedules'>;
}) {
  const api = useApi(databasesApiRef);
  const { instanceRef, instance, engine, actions } = props;
  const resourceRef = instanceResourceRef(instanceRef.cluster, instanceRef.namespace, instanceRef.name);
  const permission = usePermission({ permission: databasesScheduleUpdatePermission, resourceRef });
  const may = {
    create: allowedBoth(permission, actions?.createSchedule),
    update: allowedBoth(permission, actions?.updateSchedules),
    delete: allowedBoth(permission, actions?.deleteSchedules),
  };
  const capabilities = engine?.spec.backup;
  const none = !!capabilities && !capabilities.schedule;

  const [schedules, setSchedules] = useState<DatabaseBackupSchedule[]>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<unknown>();
  const [notice, setNotice] = useState<string>();
  const [editing, setEditing] = useState<DatabaseBackupSchedule | 'new'>();
  const [deleting, setDeleting] = useState<DatabaseBackupSchedule>();

  useEffect(() => {
    if (none) return undefined;
    return api.watchSchedules(instanceRef, {
      onList: items => {
        setSchedules(items);
        setError(undefined);
      },
      onChange: change => setSchedules(list => applyListChange(list ?? [], change.type, change.schedule, byName)),
      onError: setError,
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, none, instanceRef.cluster, instanceRef.namespace, instanceRef.name]);

  const name = instance.metadata.name ?? '';
  const blocker = scheduleBlocker(instance, may.create, engine);
  const shown = (s: DatabaseBackupSchedule) => setSchedules(list => applyListChange(list ?? [], 'MODIFIED', s, byName));

  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setActionError(undefined);
    setNotice(undefined);
    try {
      await fn();
    } catch (e) {
      setActionError(e);
    } finally {
      setBusy(false);
    }
  };

  const save = (form: ScheduleForm) =>
    run(async () => {
      if (editing === 'new') {
        const retention = form.retention.trim();
        const { schedule } = await api.createSchedule(instanceRef, {
          schedule: form.schedule.trim(),
          ...(form.suspend && { suspend: true }),
          ...(retention && { retention }),
          ...(form.method && (capabilities?.methods?.length ?? 0) > 1 && { method: form.method }),
        });
        shown(schedule);
      } else if (editing) {
        const change = scheduleChange(editing, form);
        if (Object.keys(change).length) {
          const { schedule } = await api.updateSchedule(instanceRef, editing.metadata.name ?? '', {
            ...change,
            resourceVersion: editing.metadata.resourceVersion,
          });
          shown(schedule);
        }
      }
      setEditing(undefined);
    });

  const toggle = (s: DatabaseBackupSchedule) =>
    run(async () => {
      const { schedule } = await api.updateSchedule(instanceRef, s.metadata.name ?? '', {
        suspend: !s.spec.suspend,
        resourceVersion: s.metadata.resourceVersion,
      });
      shown(schedule);
    });

  const confirmDelete = () =>
    run(async () => {
      if (!deleting) return;
      const answer = await api.deleteSchedule(instanceRef, deleting.metadata.name ?? '');
      setSchedules(list => applyListChange(list ?? [], 'DELETED', deleting, byName));
      setNotice(`Deleted ${deleting.metadata.name}. ${answer.warnings.join(' ') || 'The backups it took are kept.'}`);
      setDeleting(undefined);
    });

  const addButton = (
    <Button
      variant="outlined"
      color="primary"
      disabled={!!blocker || busy}
      onClick={() => {
        setActionError(undefined);
        setEditing('new');
      }}
    >
      Add schedule
    </Button>
  );

  const now = Date.now();
  const list = () => {
    if (none) return null;
    if (error !== undefined && !schedules) return <ErrorExplanation error={error} doing={`read the backup schedules of ${name}`} />;
    if (!schedules) {
      return (
        <Typography variant="body2" color="textSecondary">
          Reading the schedules…
        </Typography>
      );
    }
    if (schedules.length === 0) {
      return (
        <Typography variant="body2" color="textSecondary" data-testid="schedules-none">
          {name} has no backup schedule: backups run only when someone asks.
        </Typography>
      );
    }
    return (
      <Table size="small" aria-label="Backup schedules">
        <TableHead>
          <TableRow>
            <TableCell>Schedule</TableCell>
            <TableCell>Cron (UTC)</TableCell>
            <TableCell>Status</TableCell>
            <TableCell>Last run</TableCell>
            <TableCell>Next run</TableCell>
            <TableCell>Retention</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {schedules.map(s => (
            <TableRow key={s.metadata.name} data-testid="schedule-row">
              <TableCell style={{ fontFamily: 'monospace' }}>{s.metadata.name}</TableCell>
              <TableCell style={{ fontFamily: 'monospace' }}>{s.spec.schedule}</TableCell>
              <TableCell title={s.status?.message}>{s.spec.suspend ? 'Suspended' : s.status?.reason ?? '—'}</TableCell>
              <TableCell title={s.status?.lastScheduleTime}>{relative(s.status?.lastScheduleTime, now)}</TableCell>
              <TableCell title={s.status?.nextScheduleTime}>{s.spec.suspend ? '—' : relative(s.status?.nextScheduleTime, now)}</TableCell>
              <TableCell>{retentionText(s.spec.retention)}</TableCell>
              <TableCell padding="none" align="right">
                <Button size="small" color="primary" disabled={!may.update || busy} onClick={() => toggle(s)} aria-label={`${s.spec.suspend ? 'Resume' : 'Suspend'} ${s.metadata.name}`}>
                  {s.spec.suspend ? 'Resume' : 'Suspend'}
                </Button>
                <Tooltip title={may.update ? `Change ${s.metadata.name}` : 'You do not have permission to change the backup schedules of this database.'}>
                  <span>
                    <IconButton size="small" aria-label={`Change schedule ${s.metadata.name}`} disabled={!may.update || busy} onClick={() => { setActionError(undefined); setEditing(s); }}>
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </span>
                </Tooltip>
                <Tooltip title={may.delete ? `Delete ${s.metadata.name}` : 'You do not have permission to delete the backup schedules of this database.'}>
                  <span>
                    <IconButton size="small" aria-label={`Delete schedule ${s.metadata.name}`} disabled={!may.delete || busy} onClick={() => { setActionError(undefined); setDeleting(s); }}>
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
      title="Backup schedules"
      action={addButton}
      blocker={blocker}
      testIds={{ blocked: 'blocked-add-schedule', blocker: 'schedule-blocker' }}
      notice={notice ? { text: notice, severity: 'info', testId: 'schedule-notice', onClose: () => setNotice(undefined) } : undefined}
      error={actionError !== undefined && !editing && !deleting ? { error: actionError, doing: `change the backup schedules of ${name}` } : undefined}
    >
      {list()}

      {editing && (
        <ScheduleDialog
          instanceName={name}
          engine={engine}
          editing={editing === 'new' ? undefined : editing}
          busy={busy}
          error={actionError}
          onSave={save}
          onClose={() => setEditing(undefined)}
        />
      )}

      <ConfirmDeleteDialog
        name={deleting?.metadata.name}
        title={`Delete schedule ${deleting?.metadata.name}?`}
        warningTestId="schedule-delete-warning"
        warning={`No new backups of ${name} start on this schedule. The backups it already took are kept, and their stored data is not deleted.`}
        confirmLabel="Delete schedule"
        busy={busy}
        error={actionError}
        onCancel={() => setDeleting(undefined)}
        onConfirm={confirmDelete}
      />
    </ActionCard>
  );
}
