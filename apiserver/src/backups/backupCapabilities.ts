import type { BackupCapabilities } from '@internal/plugin-databases-common';
import type { OperatorAdapter } from '../adapters/types';

/**
 * What an engine can do about backups, as DatabaseEngine `spec.backup` says it: its backup
 * side's capabilities, or all false with the reason where its operator has no backup objects
 * (ECK, the OT redis-operator, RabbitMQ): nothing is invented for them.
 */
export function backupCapabilities(adapter: OperatorAdapter): BackupCapabilities {
  const side = adapter.backups;
  if (side) {
    const why = !side.capabilities.schedule && side.capabilities.onDemand ? side.scheduleRefusal : undefined;
    return { ...side.capabilities, ...(why && { scheduleReason: why }) };
  }
  return {
    onDemand: false,
    schedule: false,
    restore: false,
    pointInTime: false,
    reason: `${adapter.operator} has no backup or restore objects`,
  };
}
