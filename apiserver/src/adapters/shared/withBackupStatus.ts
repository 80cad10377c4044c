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
  const capabilities = engineCapabilities(adapter);
  const side = adapter.backups;
  if (!side) return capabilities;
  const causes = side.validate({ instanceRef: { name: source.metadata?.name ?? '' } }, source);
  const recorded = side.recordedRuns?.(source);
  if (!causes.length && !(recorded && Object.keys(recorded).length)) return capabilities;
  return {
    ...capabilities,
    ...(causes.length && { onDemand: false, schedule: false, reason: causes.map(c => detail(c.message)).join('; ') }),
    ...recorded,
  };
}

const shared = new WeakMap<OperatorAdapter, InstanceBackupStatus>();

/**
 * The engine's capabilities as one frozen object per adapter: most instances have nothing of their
 * own to add, and the store keeps tens of thousands of them.
 */
function engineCapabilities(adapter: OperatorAdapter): InstanceBackupStatus {
  let found = shared.get(adapter);
  if (!found) {
    found = Object.freeze(backupCapabilities(adapter));
    shared.set(adapter, found);
  }
  return found;
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
