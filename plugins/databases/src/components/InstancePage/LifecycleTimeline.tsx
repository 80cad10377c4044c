import { backupRunTime, type DatabaseBackup, type DatabaseInstance, type PhaseTransition, type RequestRecord } from '@internal/plugin-databases-common';
import { Typography } from '@material-ui/core';
import { makeStyles, useTheme, type Theme } from '@material-ui/core/styles';
import { backupPhaseStyle } from '../../lib/backupPhaseStyle';
import { phaseStyle } from '../../lib/phaseStyle';
import { toneColor } from '../PhaseChip';
import { PhaseChip } from '../PhaseChip';

/**
 * One line of the timeline: a phase change, a request made through the portal, a backup run (at
 * its end, or its start while it runs), or where the instance's data came from (a restore).
 */
export type TimelineEntry =
  | { kind: 'transition'; at: string; transition: PhaseTransition }
  | { kind: 'request'; at: string; request: RequestRecord }
  | { kind: 'backup'; at: string; backup: DatabaseBackup }
  | { kind: 'restore'; at: string; from: NonNullable<DatabaseInstance['spec']['restoreFrom']> };

/** Merges history and live transitions, requests, backup runs and the restore, newest first, without duplicates. */
export function buildTimeline(
  transitions: PhaseTransition[],
  requests: RequestRecord[],
  more: { backups?: readonly DatabaseBackup[]; instance?: DatabaseInstance } = {},
): TimelineEntry[] {
  const seen = new Set<string>();
  const entries: TimelineEntry[] = [];
  for (const t of transitions) {
    const id = `${t.at}|${t.from ?? ''}|${t.to}`;
    if (seen.has(id)) continue;
    seen.add(id);
    entries.push({ kind: 'transition', at: t.at, transition: t });
  }
  for (const r of requests) entries.push({ kind: 'request', at: r.at, request: r });
  for (const b of more.backups ?? []) {
    const at = backupRunTime(b);
    if (at) entries.push({ kind: 'backup', at, backup: b });
  }
  const from = more.instance?.spec.restoreFrom;
  const created = more.instance?.metadata.creationTimestamp;
  if (from && created) entries.push({ kind: 'restore', at: created, from });
  return entries.sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
}

/** What a restore entry says: the backup, or the instance and the time it was recovered to. */
const restoredFrom = (from: NonNullable<DatabaseInstance['spec']['restoreFrom']>) =>
  from.backup ? `restored from backup ${from.backup}` : `restored from ${from.instance} as of ${from.pointInTime}`;

const useStyles = makeStyles(theme => ({
  list: { listStyle: 'none', margin: 0, padding: 0 },
  item: {
    display: 'flex',
    gap: theme.spacing(2),
    paddingBottom: theme.spacing(2),
    position: 'relative',
  },
  rail: { display: 'flex', flexDirection: 'column', alignItems: 'center', width: 14 },
  dot: { width: 12, height: 12, borderRadius: '50%', marginTop: 4, flexShrink: 0 },
  line: { flexGrow: 1, width: 2, backgroundColor: theme.palette.divider, marginTop: 4 },
  time: { minWidth: 160, color: theme.palette.text.secondary, fontSize: 13, paddingTop: 2 },
}));

const VERBS: Record<RequestRecord['action'], string> = {
  create: 'requested',
  update: 'changed',
  delete: 'asked to delete',
  backup: 'asked for a backup of',
  'delete-backup': 'deleted a backup of',
  schedule: 'scheduled backups of',
  'update-schedule': 'changed a backup schedule of',
  'delete-schedule': 'deleted a backup schedule of',
};

/** An entry's dot: a phase's or a run's tone; requests and the restore in grey. */
function dotColor(entry: TimelineEntry, theme: Theme): string {
  switch (entry.kind) {
    case 'transition':
      return toneColor(theme, phaseStyle(entry.transition.to).tone);
    case 'backup':
      return toneColor(theme, backupPhaseStyle(entry.backup.status?.phase ?? 'Unknown').tone);
    default:
      return theme.palette.text.disabled;
  }
}

/** What one entry says. */
function EntryBody(props: { entry: TimelineEntry }) {
  const { entry } = props;
  switch (entry.kind) {
    case 'transition':
      return (
        <div>
          <div>
            {entry.transition.from ? <PhaseChip phase={entry.transition.from} /> : null}
            {entry.transition.from ? ' → ' : ''}
            <PhaseChip phase={entry.transition.to} />
            {entry.transition.reason && (
              <Typography component="span" variant="body2" style={{ marginLeft: 8 }}>
                {entry.transition.reason}
              </Typography>
            )}
          </div>
          {entry.transition.message && (
            <Typography variant="body2" color="textSecondary">
              {entry.transition.message}
            </Typography>
          )}
        </div>
      );
    case 'backup': {
      const status = entry.backup.status;
      return (
        <div>
          <div>
            <Typography component="span" variant="body2" style={{ marginRight: 8 }}>
              Backup <span style={{ fontFamily: 'monospace' }}>{entry.backup.metadata.name}</span>
            </Typography>
            <PhaseChip phase={status?.phase ?? 'Unknown'} styleOf={backupPhaseStyle} />
          </div>
          {status?.phase === 'Failed' && (status.reason || status.message) && (
            <Typography variant="body2" color="textSecondary">
              {[status.reason, status.message].filter(Boolean).join(': ')}
            </Typography>
          )}
        </div>
      );
    }
    case 'restore':
      return (
        <div>
          <Typography variant="body2">Created: {restoredFrom(entry.from)}</Typography>
        </div>
      );
    default: {
      const { actor, action, outcome } = entry.request;
      return (
        <div>
          <Typography variant="body2">
            <strong>{actor}</strong> {VERBS[action]} it
            {outcome.status >= 400 ? ` — refused (${outcome.status}${outcome.message ? `: ${outcome.message}` : ''})` : ''}
          </Typography>
        </div>
      );
    }
  }
}

/** The lifecycle of one instance: each phase change with its time and reason, and who asked for what. */
export function LifecycleTimeline(props: { entries: TimelineEntry[] }) {
  const classes = useStyles();
  const theme = useTheme();
  if (props.entries.length === 0) {
    return (
      <Typography variant="body2" color="textSecondary">
        No phase changes recorded yet.
      </Typography>
    );
  }
  return (
    <ol className={classes.list} aria-label="Lifecycle timeline">
      {props.entries.map((entry, i) => (
        <li key={`${entry.kind}-${entry.at}-${i}`} className={classes.item} data-testid="timeline-entry">
          <div className={classes.rail}>
            <span className={classes.dot} style={{ backgroundColor: dotColor(entry, theme) }} />
            {i < props.entries.length - 1 && <span className={classes.line} />}
          </div>
          <span className={classes.time}>{new Date(entry.at).toLocaleString()}</span>
          <EntryBody entry={entry} />
        </li>
      ))}
    </ol>
  );
}
