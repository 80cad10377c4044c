import type {
  DatabaseInstance,
  DiagnosisFinding,
} from '@internal/plugin-databases-common';
import {
  asRecord,
  asString,
  nameOf,
  namespaceOf,
  objectRefOf,
} from '../shared/read';
import type { KubeObject } from '../types';

/** CloudNativePG phases where nothing moves until someone acts. */
export function cloudnativePgFindings(
  source: KubeObject,
  _instance: DatabaseInstance,
): DiagnosisFinding[] {
  const status = asRecord(source.status) ?? {};
  const phase = asString(status.phase);
  const name = nameOf(source);
  const ns = namespaceOf(source);
  const objects = [objectRefOf(source)];
  if (phase === 'Waiting for user action')
    return [
      {
        reason: 'WaitingForUserAction',
        severity: 'Error',
        message: `CloudNativePG is waiting for user action${asString(status.phaseReason) ? `: ${status.phaseReason}` : ''}`,
        hint: `With primaryUpdateStrategy: supervised the primary is only updated by a switchover you start: kubectl cnpg promote -n ${ns} ${name} <replica instance> (or set primaryUpdateStrategy: unsupervised).`,
        objects,
      },
    ];
  if (phase === 'Cluster is unrecoverable and needs manual intervention')
    return [
      {
        reason: 'Unrecoverable',
        severity: 'Error',
        message: `CloudNativePG cannot recover the cluster by itself${asString(status.phaseReason) ? `: ${status.phaseReason}` : ''}`,
        hint: `Read kubectl cnpg status -n ${ns} ${name}; usually an instance's volume is lost: delete that instance's PVC and pod so the operator clones it from the primary, or restore from a backup.`,
        objects,
      },
    ];
  return [];
}
