import type { PhaseTransition, RequestRecord } from '@internal/plugin-databases-common';
import { Typography } from '@material-ui/core';
import { makeStyles, useTheme } from '@material-ui/core/styles';
import { phaseStyle } from '../../lib/phaseStyle';
import { toneColor } from '../PhaseChip';
import { PhaseChip } from '../PhaseChip';

/** One line of the timeline: a phase change or a request made through the portal. */
export type TimelineEntry =
  | { kind: 'transition'; at: string; transition: PhaseTransition }
  | { kind: 'request'; at: string; request: RequestRecord };

/** Merges history and live transitions, newest first, without duplicates. */
export function buildTimeline(transitions: PhaseTransition[], requests: RequestRecord[]): TimelineEntry[] {
  const seen = new Set<string>();
  const entries: TimelineEntry[] = [];
  for (const t of transitions) {
    const id = `${t.at}|${t.from ?? ''}|${t.to}`;
    if (seen.has(id)) continue;
    seen.add(id);
    entries.push({ kind: 'transition', at: t.at, transition: t });
  }
  for (const r of requests) entries.push({ kind: 'request', at: r.at, request: r });
  return entries.sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
}

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
      {props.entries.map((entry, i) => {
        const color =
          entry.kind === 'transition'
            ? toneColor(theme, phaseStyle(entry.transition.to).tone)
            : theme.palette.text.disabled;
        return (
          <li key={`${entry.kind}-${entry.at}-${i}`} className={classes.item} data-testid="timeline-entry">
            <div className={classes.rail}>
              <span className={classes.dot} style={{ backgroundColor: color }} />
              {i < props.entries.length - 1 && <span className={classes.line} />}
            </div>
            <span className={classes.time}>{new Date(entry.at).toLocaleString()}</span>
            {entry.kind === 'transition' ? (
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
            ) : (
              <div>
                <Typography variant="body2">
                  <strong>{entry.request.actor}</strong> {VERBS[entry.request.action]} it
                  {entry.request.outcome.status >= 400
                    ? ` — refused (${entry.request.outcome.status}${entry.request.outcome.message ? `: ${entry.request.outcome.message}` : ''})`
                    : ''}
                </Typography>
              </div>
            )}
          </li>
        );
      })}
    </ol>
  );
}
