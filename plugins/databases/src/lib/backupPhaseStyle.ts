import type { BackupPhase } from '@internal/plugin-databases-common';
import type { PhaseStyle } from './phaseStyle';

/** A backup run's phase in the portal's colour language: the same tones as the instance phases. */
const STYLES: Record<BackupPhase, PhaseStyle> = {
  Pending: { tone: 'pending', inProgress: true, description: 'Asked for; the operator has not started it yet.' },
  Running: { tone: 'running', inProgress: true, description: 'The backup is being taken.' },
  Succeeded: { tone: 'ok', inProgress: false, description: 'Taken and stored.' },
  Failed: { tone: 'error', inProgress: false, description: 'The run failed; nothing usable was stored.' },
  Unknown: { tone: 'aborted', inProgress: false, description: 'The operator does not say how the run went.' },
};

/** The style of a backup phase; anything the UI does not know is drawn as Unknown. */
export function backupPhaseStyle(phase: string | undefined): PhaseStyle {
  return STYLES[(phase ?? 'Unknown') as BackupPhase] ?? STYLES.Unknown;
}

/** How long a run took (or has been running), as kubectl prints a Job's duration: `45s`, `3m12s`, `2h5m`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '';
  const s = Math.floor(ms / 1000);
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return `${m}m${s % 60}s`;
  if (m < 180) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 8) return `${h}h${m % 60}m`;
  return `${h}h`;
}
