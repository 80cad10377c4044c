import { Chip, CircularProgress, Tooltip } from '@material-ui/core';
import { makeStyles, Theme } from '@material-ui/core/styles';
import { phaseStyle, PhaseStyle, PhaseTone } from '../../lib/phaseStyle';

/** Colour of a tone from Backstage's status palette, so chips match the rest of the portal. */
export function toneColor(theme: Theme, tone: PhaseTone): string {
  const status = (theme.palette as unknown as { status?: Record<string, string> }).status;
  const fallback: Record<PhaseTone, string> = {
    ok: '#1db954',
    warning: '#ff9800',
    error: '#e22134',
    running: '#2e77d0',
    pending: '#9e9e9e',
    aborted: '#757575',
  };
  return status?.[tone] ?? fallback[tone];
}

const useStyles = makeStyles(theme => ({
  chip: (props: { tone: PhaseTone }) => ({
    borderColor: toneColor(theme, props.tone),
    color: theme.palette.text.primary,
    fontWeight: 500,
    margin: 0,
  }),
  dot: (props: { tone: PhaseTone }) => ({
    width: 10,
    height: 10,
    borderRadius: '50%',
    marginLeft: 8,
    backgroundColor: toneColor(theme, props.tone),
  }),
  spinner: (props: { tone: PhaseTone }) => ({
    marginLeft: 8,
    color: toneColor(theme, props.tone),
  }),
}));

/**
 * A lifecycle phase, drawn the same for every engine: one colour per tone, a spinner while
 * work is under way, and the phase's meaning (plus the reason, if given) on hover.
 *
 * @public
 */
export function PhaseChip(props: {
  phase?: string;
  reason?: string;
  size?: 'small' | 'medium';
  /** How the phases of another lifecycle look (a backup run's); the instance phases by default. */
  styleOf?: (phase: string) => PhaseStyle;
}) {
  const phase = props.phase ?? 'Unknown';
  const style = (props.styleOf ?? phaseStyle)(phase);
  const classes = useStyles({ tone: style.tone });
  const icon = style.inProgress ? (
    <CircularProgress size={10} thickness={6} className={classes.spinner} aria-hidden />
  ) : (
    <span className={classes.dot} aria-hidden />
  );
  return (
    <Tooltip title={props.reason ? `${style.description} (${props.reason})` : style.description}>
      <Chip
        variant="outlined"
        size={props.size ?? 'small'}
        className={classes.chip}
        icon={icon}
        label={phase}
        data-testid="phase-chip"
        data-tone={style.tone}
      />
    </Tooltip>
  );
}
