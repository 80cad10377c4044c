import type { DatabaseInstance, InstanceBackupStatus } from '@internal/plugin-databases-common';
import { backupCapabilities } from '../../backups/backupCapabilities';
import type { KubeObject, OperatorAdapter } from '../types';

/** A field error's message without its kind (`Required value: `, `Invalid value: "x": `). */
const detail = (message: string) => message.replace(/^(Required value|Forbidden|Invalid value: (".*?"|\S+)): /, '');

/**
 * What an instance can do about backups now: its engine's capabilities, none where the operator
 * object is not configured for a backup by the default method (the backup side's own refusal,
 * the reason in its words), with the runs the operator records on the object.
 */
export function instanceBackupStatus(adapter: OperatorAdapter, source: KubeObject): InstanceBackupStatus {
  const capabilities = backupCapabilities(adapter);
  const side = adapter.backups;
  if (!side) return capabilities;
  const causes = side.validate({ instanceRef: { name: source.metadata?.name ?? '' } }, source);
  return {
    ...capabilities,
    ...(causes.length && { onDemand: false, schedule: false, reason: causes.map(c => detail(c.message)).join('; ') }),
    ...side.recordedRuns?.(source),
  };
}

/** The adapter with `status.backup` on every instance it projects (see instanceBackupStatus). */
export function withBackupStatus(adapter: OperatorAdapter): OperatorAdapter {
  return {
    ...adapter,
    project(source, kind, related): DatabaseInstance {
      const instance = adapter.project(source, kind, related);
      if (!instance.status) return instance;
      return { ...instance, status: { ...instance.status, backup: instanceBackupStatus(adapter, source) } };
    },
  };
}
