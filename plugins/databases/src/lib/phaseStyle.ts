import type { DatabasePhase } from '@internal/plugin-databases-common';

/** The Backstage status palette key a phase is drawn in (`theme.palette.status.*`). */
export type PhaseTone = 'ok' | 'warning' | 'error' | 'running' | 'pending' | 'aborted';

/** How a phase looks and reads; one table for every engine so colours mean the same everywhere. */
export interface PhaseStyle {
  tone: PhaseTone;
  /** Work is under way: the UI shows progress instead of a still picture. */
  inProgress: boolean;
  /** One sentence for a developer. */
  description: string;
}

const STYLES: Record<DatabasePhase, PhaseStyle> = {
  Pending: { tone: 'pending', inProgress: true, description: 'Accepted; waiting for the operator to start.' },
  Provisioning: { tone: 'running', inProgress: true, description: 'The operator is creating the database.' },
  Ready: { tone: 'ok', inProgress: false, description: 'Up and serving.' },
  Updating: { tone: 'running', inProgress: true, description: 'A change is being rolled out.' },
  Degraded: { tone: 'warning', inProgress: false, description: 'Serving, but not every replica is healthy.' },
  Failed: { tone: 'error', inProgress: false, description: 'Not serving; the operator reported a failure.' },
  Paused: { tone: 'aborted', inProgress: false, description: 'Stopped on purpose: hibernated, or the operator told not to reconcile.' },
  Deleting: { tone: 'aborted', inProgress: true, description: 'Being removed.' },
  Unknown: { tone: 'aborted', inProgress: false, description: 'The operator has not reported a status yet.' },
};

/** The style of a phase; anything the UI does not know is drawn as Unknown. */
export function phaseStyle(phase: string | undefined): PhaseStyle {
  return STYLES[(phase ?? 'Unknown') as DatabasePhase] ?? STYLES.Unknown;
}
