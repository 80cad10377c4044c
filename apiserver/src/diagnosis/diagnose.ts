import {
  DATABASE_INSTANCE_DIAGNOSIS_KIND,
  DATABASES_GROUP_VERSION,
  type DatabaseInstance,
  type DatabaseInstanceDiagnosis,
  type DatabasePhase,
  type DiagnosisFinding,
  type DiagnosisSeverity,
} from '@internal/plugin-databases-common';
import type { KubeObject, OperatorAdapter } from '../adapters/types';
import { memberFindings } from './memberFindings';

const SEVERITY: Partial<Record<DatabasePhase, DiagnosisSeverity>> = {
  Failed: 'Error',
  Degraded: 'Warning',
  Unknown: 'Warning',
  Pending: 'Warning',
  Provisioning: 'Info',
  Updating: 'Info',
  Paused: 'Info',
  Deleting: 'Info',
};

const HINT: Partial<Record<DatabasePhase, string>> = {
  Pending:
    'Nothing has acted on the object yet: check that the operator is installed and running, and that it watches this namespace.',
  Provisioning:
    'The operator is creating the instance: this settles by itself; if it lasts, its status and events say why.',
  Updating:
    'The operator is rolling out a change: this settles by itself; if it lasts, its status and events say why.',
  Paused:
    'The instance is paused on purpose; resume it to have the operator reconcile it again.',
  Deleting:
    'The operator is removing the instance; finalizers keep it until its resources are gone.',
};

/**
 * What is wrong with an instance: what its operator's status says (the adapter's findings),
 * then what its pods and volume claims say. When nothing more specific explains a phase other
 * than Ready, the phase's own reason is the finding, so a client always learns something.
 * Pure: the caller fetched the pods and claims.
 */
export function diagnose(
  adapter: OperatorAdapter,
  source: KubeObject,
  instance: DatabaseInstance,
  pods: readonly KubeObject[],
  claims: readonly KubeObject[],
): DatabaseInstanceDiagnosis {
  const findings: DiagnosisFinding[] = [
    ...(adapter.findings?.(source, instance) ?? []),
    ...memberFindings(pods, claims),
  ];
  const { phase, reason, message, source: from } = instance.status ?? {};
  if (findings.length === 0 && phase && phase !== 'Ready')
    findings.push({
      reason: reason ?? phase,
      severity: SEVERITY[phase] ?? 'Warning',
      message: message ?? `The instance is ${phase}`,
      hint:
        HINT[phase] ??
        `Read the ${from?.kind ?? 'operator'} object's status and events: kubectl describe ${(from?.kind ?? '').toLowerCase()} -n ${instance.metadata.namespace} ${from?.name ?? instance.metadata.name}`,
      objects: from
        ? [
            {
              apiVersion: from.apiVersion,
              kind: from.kind,
              name: from.name,
              namespace: instance.metadata.namespace,
            },
          ]
        : [],
    });
  return {
    apiVersion:
      DATABASES_GROUP_VERSION as DatabaseInstanceDiagnosis['apiVersion'],
    kind: DATABASE_INSTANCE_DIAGNOSIS_KIND as DatabaseInstanceDiagnosis['kind'],
    metadata: {
      name: instance.metadata.name ?? '',
      namespace: instance.metadata.namespace ?? '',
      ...(instance.metadata.uid ? { uid: instance.metadata.uid } : {}),
    },
    ...(phase ? { phase } : {}),
    ...(reason ? { reason } : {}),
    findings,
  };
}
