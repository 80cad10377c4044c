import type { PhaseFacts, Signal } from '../../status/facts';
import {
  asNumber,
  asRecord,
  asString,
  findCondition,
  hasAnyStatus,
} from '../shared/read';
import type { KubeObject } from '../types';
import { CLUSTER_PHASES, PHASE_HEALTHY } from './clusterPhases';
import { FAILOVER_MARKER } from './primary';

/** The hibernation condition the hibernation reconciler writes (pkg/reconciler/hibernation). */
export const HIBERNATION_CONDITION = 'cnpg.io/hibernation';
const RECONCILIATION_ANNOTATION = 'cnpg.io/reconciliationLoop';

/** `PhaseFirstPrimary`: the first instance is being created (by initdb, or by a recovery). */
const FIRST_PRIMARY = 'Setting up primary';

/** The Cluster bootstraps from a backup (`spec.bootstrap.recovery`), not with initdb. */
const isRecovery = (spec: Record<string, any>) => asRecord(asRecord(spec.bootstrap)?.recovery) !== undefined;

/** No verdict possible: the phase is missing or a sentence this adapter does not know. */
const noVerdict = (message: string): Signal => ({
  reason: 'UnrecognizedPhase',
  message,
});

/**
 * Why the owner stopped the cluster, if they did: hibernation (pods deleted, PVCs kept; the
 * phase stays "healthy" and Ready stays True, issue #3390) or a disabled reconciliation loop
 * (the status is frozen and says nothing about now).
 */
function pausedSignal(source: KubeObject): Signal | undefined {
  const status = asRecord(source.status) ?? {};
  const annotations = source.metadata?.annotations ?? {};
  const hibernation = findCondition(status, HIBERNATION_CONDITION);
  if (
    hibernation?.status === 'True' ||
    annotations[HIBERNATION_CONDITION] === 'on'
  )
    return {
      reason: hibernation?.status === 'True' ? 'Hibernated' : 'Hibernating',
      message:
        hibernation?.message ??
        'Hibernation requested (cnpg.io/hibernation: on)',
    };
  if (annotations[RECONCILIATION_ANNOTATION] === 'disabled')
    return {
      reason: 'ReconciliationDisabled',
      message:
        'cnpg.io/reconciliationLoop is "disabled": the operator does not reconcile this cluster, so its status may be stale',
    };
  return undefined;
}

/**
 * A failing WAL archiver or a failed last backup: the cluster still serves, but point-in-time
 * recovery is at risk. `LastBackupSucceeded=False` with reason BackupStarted only means a
 * backup is running, so only LastBackupFailed counts.
 */
function archivingSignal(status: Record<string, any>): Signal | undefined {
  const archiving = findCondition(status, 'ContinuousArchiving');
  if (archiving?.status === 'False')
    return {
      reason: 'ContinuousArchivingFailing',
      message: archiving.message,
    };
  const backup = findCondition(status, 'LastBackupSucceeded');
  if (backup?.status === 'False' && backup.reason === 'LastBackupFailed')
    return { reason: 'LastBackupFailed', message: backup.message };
  return undefined;
}

/**
 * Facts from a Cluster. The operator's Ready condition is a function of the phase alone, so it
 * can be stale (issue #4209, #5150): Ready needs the healthy phase, every instance ready, and
 * the current primary being the one the operator targets. There is no observedGeneration; a
 * spec change shows only as the phase leaving "healthy".
 */
export function clusterFacts(source: KubeObject): PhaseFacts {
  const spec = asRecord(source.spec) ?? {};
  const status = asRecord(source.status) ?? {};
  const phase = asString(status.phase);
  const reason = asString(status.phaseReason);
  const desired = asNumber(spec.instances) ?? 1; // CRD default
  // readyInstances is omitted, not 0, when no instance is ready.
  const ready = asNumber(status.readyInstances) ?? 0;
  const current = asString(status.currentPrimary);
  const target = asString(status.targetPrimary);
  const readyCondition = findCondition(status, 'Ready');

  const facts: PhaseFacts = {
    deleting: source.metadata?.deletionTimestamp !== undefined,
    hasStatus: hasAnyStatus(source),
    // Evidence the cluster served before: the operator called it healthy, WAL archiving
    // worked, or a backup succeeded. A primary alone is not: creation has one too.
    onceReady:
      phase === PHASE_HEALTHY ||
      findCondition(status, 'ContinuousArchiving')?.status === 'True' ||
      asString(status.lastSuccessfulBackup) !== undefined ||
      asString(status.firstRecoverabilityPoint) !== undefined,
    replicas: { desired, ready },
  };
  const paused = pausedSignal(source);
  if (paused) facts.paused = paused;
  const archiving = archivingSignal(status);
  if (archiving) facts.unhealthy = archiving;

  if (phase === undefined) {
    // A status without a phase (a fragment, or an operator between writes): no verdict.
    if (!archiving)
      facts.indeterminate = noVerdict('The operator reports no phase');
    delete facts.replicas?.ready;
    return facts;
  }
  if (phase === PHASE_HEALTHY) {
    if (readyCondition?.status === 'False') {
      // Phase and Ready disagree (issue #4209): one of them is stale, so neither is believed.
      facts.indeterminate = {
        reason: 'PhaseAndReadyDisagree',
        message: `The phase says "${phase}" but the Ready condition is False (${readyCondition.message ?? readyCondition.reason ?? ''})`,
      };
      facts.replicas = { desired };
      return facts;
    }
    if (target === FAILOVER_MARKER)
      facts.unhealthy ??= { reason: 'FailingOver', message: reason };
    else if (target !== current)
      // The operator already targets another primary: a switchover it has not reported yet.
      facts.progress = {
        reason: 'Switchover',
        message: `Switching over from ${current ?? 'no primary'} to ${target ?? 'no primary'}`,
        change: true,
      };
    facts.operatorReady = true;
    facts.readyMessage = phase;
    return facts;
  }
  const meaning = CLUSTER_PHASES[phase];
  const signal = { reason: meaning?.reason ?? '', message: reason ?? phase };
  switch (meaning?.fact) {
    case 'creating':
      // the first primary of a Cluster bootstrapped with recovery is the restore itself
      // (its Job `<name>-1-full-recovery`, internal/controller/cluster_create.go)
      facts.progress = phase === FIRST_PRIMARY && isRecovery(spec) ? { ...signal, reason: 'Restoring' } : signal;
      break;
    case 'changing':
      facts.progress = { ...signal, change: true };
      break;
    case 'unhealthy':
      facts.unhealthy = signal;
      break;
    case 'failed':
      facts.error = signal;
      break;
    default:
      // An unknown sentence: without counts the table cannot call it Ready either.
      facts.indeterminate = noVerdict(`CloudNativePG reports phase "${phase}"`);
      facts.replicas = { desired };
  }
  return facts;
}
