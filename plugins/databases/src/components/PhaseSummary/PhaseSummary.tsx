import {
  DATABASE_PHASES,
  ListInstancesResponse,
} from '@internal/plugin-databases-common';
import { Box, Grid, Typography } from '@material-ui/core';
import { makeStyles, useTheme } from '@material-ui/core/styles';
import { InfoCard } from '@backstage/core-components';
import { phaseStyle } from '../../lib/phaseStyle';
import { toneColor } from '../PhaseChip';

const useStyles = makeStyles(theme => ({
  legend: { display: 'flex', flexWrap: 'wrap', gap: theme.spacing(2), marginTop: theme.spacing(1) },
  legendItem: {
    display: 'flex',
    alignItems: 'center',
    cursor: 'pointer',
    background: 'none',
    border: 'none',
    padding: 0,
    color: theme.palette.text.primary,
    font: 'inherit',
  },
  swatch: { width: 10, height: 10, borderRadius: 2, marginRight: 6 },
  total: { fontSize: 32, fontWeight: 700, lineHeight: 1 },
  engineRow: { display: 'flex', alignItems: 'center', marginBottom: 4 },
  engineLabel: { width: 110, fontSize: 13 },
  engineCount: { width: 32, textAlign: 'right', fontSize: 13, marginRight: 8 },
}));

/**
 * Counts by phase (one stacked bar) and by engine (bars) for everything the filters match.
 * Clicking a phase filters the list by it.
 */
export function PhaseSummary(props: {
  counts: ListInstancesResponse['counts'];
  total: number;
  onPhaseClick?: (phase: string) => void;
}) {
  const classes = useStyles();
  const theme = useTheme();
  const { byPhase, byEngine } = props.counts;
  const phases = DATABASE_PHASES.filter(p => (byPhase[p] ?? 0) > 0);
  const phaseTotal = phases.reduce((n, p) => n + (byPhase[p] ?? 0), 0);
  // The engines are whatever the clusters serve: the counts name them.
  const engines = Object.keys(byEngine)
    .filter(e => (byEngine[e] ?? 0) > 0)
    .sort();
  const engineMax = Math.max(1, ...engines.map(e => byEngine[e] ?? 0));
  let x = 0;
  return (
    <Grid container spacing={3}>
      <Grid item xs={12} md={7}>
        <InfoCard title="By phase" noPadding={false}>
          <Box display="flex" alignItems="center" mb={1}>
            <Typography className={classes.total} data-testid="total-count">
              {props.total}
            </Typography>
            <Typography variant="body2" color="textSecondary" style={{ marginLeft: 8 }}>
              {props.total === 1 ? 'database' : 'databases'}
            </Typography>
          </Box>
          <svg width="100%" height="16" role="img" aria-label="Databases by phase">
            {phaseTotal === 0 && <rect width="100%" height="16" rx="3" fill={theme.palette.divider} />}
            {phases.map(p => {
              const width = ((byPhase[p] ?? 0) / phaseTotal) * 100;
              const rect = (
                <rect
                  key={p}
                  x={`${x}%`}
                  width={`${width}%`}
                  height="16"
                  fill={toneColor(theme, phaseStyle(p).tone)}
                  onClick={() => props.onPhaseClick?.(p)}
                  style={{ cursor: 'pointer' }}
                >
                  <title>{`${p}: ${byPhase[p]}`}</title>
                </rect>
              );
              x += width;
              return rect;
            })}
          </svg>
          <div className={classes.legend}>
            {phases.map(p => (
              <button
                type="button"
                key={p}
                className={classes.legendItem}
                onClick={() => props.onPhaseClick?.(p)}
                data-testid={`phase-count-${p}`}
              >
                <span
                  className={classes.swatch}
                  style={{ backgroundColor: toneColor(theme, phaseStyle(p).tone) }}
                />
                {p} {byPhase[p]}
              </button>
            ))}
          </div>
        </InfoCard>
      </Grid>
      <Grid item xs={12} md={5}>
        <InfoCard title="By engine">
          {engines.length === 0 && (
            <Typography variant="body2" color="textSecondary">
              No databases yet.
            </Typography>
          )}
          {engines.map(e => (
            <div key={e} className={classes.engineRow} data-testid={`engine-count-${e}`}>
              <span className={classes.engineLabel}>{e}</span>
              <span className={classes.engineCount}>{byEngine[e]}</span>
              <svg width="100%" height="10" aria-hidden>
                <rect
                  width={`${((byEngine[e] ?? 0) / engineMax) * 100}%`}
                  height="10"
                  rx="2"
                  fill={theme.palette.primary.main}
                />
              </svg>
            </div>
          ))}
        </InfoCard>
      </Grid>
    </Grid>
  );
}
