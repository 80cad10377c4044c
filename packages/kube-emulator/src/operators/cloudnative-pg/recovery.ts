import type { StoredObject } from '../../store/types';
import { nextConditions } from '../conditions';
import { restoreFails } from '../restoreFate';
import type { Observation } from '../types';

/** Rounds the recovery Job runs before it has failed for good (its backoffLimit reached). */
const FAILING_ROUNDS = 2;

const isRecovery = (cr: StoredObject) => (cr.spec as Record<string, any> | undefined)?.bootstrap?.recovery !== undefined;

/**
 * A Cluster bootstrapped with `spec.bootstrap.recovery`: its first primary is created by the Job
 * `<name>-1-full-recovery` (pkg/specs/jobs.go) while the phase reads "Setting up primary"
 * "Creating primary instance <name>-1" (internal/controller/cluster_create.go); a success
 * needs nothing more than the first creation the emulation already goes through. When that Job
 * fails (FAIL_RESTORE_ANNOTATION) no instance ever starts and the operator reports
 * "Cluster is unrecoverable and needs manual intervention" with "Instance creation failed for
 * the following jobs: <job>" (PhaseUnrecoverable, api/v1/cluster_types.go).
 */
export function withRecovery(cr: StoredObject, obs: Observation, status: Record<string, any> | undefined): Record<string, any> | undefined {
  if (!status || !isRecovery(cr) || !restoreFails(cr)) return status;
  const memo = (obs.memo ??= {});
  const rounds = ((memo.recoveryRounds as number | undefined) ?? 0) + 1;
  memo.recoveryRounds = rounds;
  const name = cr.metadata.name;
  const { readyInstances: _ready, currentPrimary: _primary, instancesStatus: _members, ...rest } = status;
  const failed = rounds > FAILING_ROUNDS;
  return {
    ...rest,
    phase: failed ? 'Cluster is unrecoverable and needs manual intervention' : 'Setting up primary',
    phaseReason: failed ? `Instance creation failed for the following jobs: ${name}-1-full-recovery` : `Creating primary instance ${name}-1`,
    conditions: nextConditions(
      status.conditions,
      (status.conditions as any[] ?? []).map(c => (c.type === 'Ready' ? { type: 'Ready', status: 'False', reason: 'ClusterIsNotReady', message: 'Cluster Is Not Ready' } : c)),
      obs.now,
    ),
  };
}
