import type { DatabaseBackupSchedule, DatabaseEngine } from '@internal/plugin-databases-common';
import {
  Box,
  Button,
  Checkbox,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  MenuItem,
  TextField,
} from '@material-ui/core';
import { useState } from 'react';
import { ErrorExplanation } from '../ErrorExplanation';

/** What the dialog asks for; `retention` empty: the operator's default. */
export interface ScheduleForm {
  schedule: string;
  suspend: boolean;
  retention: string;
  method: string;
}

/** The form for a new schedule (the engine's default method) or for `editing`. */
export function scheduleForm(engine: DatabaseEngine | undefined, editing?: DatabaseBackupSchedule): ScheduleForm {
  return {
    schedule: editing?.spec.schedule ?? '0 2 * * *',
    suspend: editing?.spec.suspend ?? false,
    retention: editing?.spec.retention ?? '',
    method: editing?.spec.method ?? engine?.spec.backup?.methods?.[0] ?? '',
  };
}

/**
 * Add or change a backup schedule: a 5-field cron in UTC, suspend, retention and (new ones, where
 * the operator has several) the method. What the operator cannot do is the apiserver's to refuse:
 * its answer names the field, and is shown here with the form kept.
 */
export function ScheduleDialog(props: {
  instanceName: string;
  engine?: DatabaseEngine;
  /** The schedule changed; absent: a new one. */
  editing?: DatabaseBackupSchedule;
  busy: boolean;
  error: unknown;
  onSave(form: ScheduleForm): void;
  onClose(): void;
}) {
  const { instanceName, engine, editing, busy, error, onSave, onClose } = props;
  const [form, setForm] = useState<ScheduleForm>(() => scheduleForm(engine, editing));
  const methods = engine?.spec.backup?.methods ?? [];
  const set = (part: Partial<ScheduleForm>) => setForm(f => ({ ...f, ...part }));
  const title = editing ? `Change schedule ${editing.metadata.name}` : `Schedule backups of ${instanceName}`;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="schedule-dialog-title">
      <DialogTitle id="schedule-dialog-title">{title}</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {engine?.spec.operator ?? 'The operator'} runs a backup whenever the cron matches. Times are UTC.
        </DialogContentText>
        <TextField
          label="Schedule (cron)"
          id="schedule-cron"
          value={form.schedule}
          onChange={e => set({ schedule: e.target.value })}
          helperText="minute hour day-of-month month day-of-week, e.g. 30 2 * * * (daily at 02:30 UTC)"
          variant="outlined"
          margin="dense"
          fullWidth
          inputProps={{ style: { fontFamily: 'monospace' } }}
        />
        <TextField
          label="Retention"
          id="schedule-retention"
          value={form.retention}
          onChange={e => set({ retention: e.target.value })}
          helperText="How long runs are kept, e.g. 30d or 720h; empty: the operator's default"
          variant="outlined"
          margin="dense"
          fullWidth
        />
        {!editing && methods.length > 1 && (
          <TextField select label="Method" id="schedule-method" value={form.method} onChange={e => set({ method: e.target.value })} variant="outlined" margin="dense" fullWidth>
            {methods.map(m => (
              <MenuItem key={m} value={m}>
                {m}
              </MenuItem>
            ))}
          </TextField>
        )}
        <FormControlLabel
          control={<Checkbox checked={form.suspend} onChange={e => set({ suspend: e.target.checked })} color="primary" />}
          label="Suspended (no new runs start)"
        />
        {error !== undefined && (
          <Box mt={2}>
            <ErrorExplanation error={error} doing={editing ? `change ${editing.metadata.name}` : `schedule backups of ${instanceName}`} />
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        {busy && <CircularProgress size={20} />}
        <Button onClick={onClose}>Cancel</Button>
        <Button color="primary" variant="contained" disabled={busy || !form.schedule.trim()} onClick={() => onSave(form)}>
          {editing ? 'Save' : 'Add schedule'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
