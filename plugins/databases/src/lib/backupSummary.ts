import type { DatabaseInstance } from '@internal/plugin-databases-common';
import { formatAge } from './format';

/** What the Databases page says of an instance's backups, from its `status.backup`. */
export interface BackupSummary {
  text: string;
  /** The last run failed (after the last success, if any): shown red. */
  failed: boolean;
  /** The whole story, for the cell's tooltip. */
  title: string;
}

/**
 * "3h ago", "failed 20m ago" (red: the last run failed) or "never", with the times behind it;
 * undefined for an instance whose engine has no backups (nothing to say, the cell stays empty).
 */
export function backupSummary(instance: DatabaseInstance, now: number = Date.now()): BackupSummary | undefined {
  const backup = instance.status?.backup;
  if (!backup) return undefined;
  const { lastSuccessfulTime: ok, lastFailedTime: bad, nextScheduleTime: next } = backup;
  const nextText = next ? `; next scheduled run ${next}` : '';
  if (!ok && !bad) {
    return { text: 'never', failed: false, title: `No backup has run${nextText}` };
  }
  const failed = !!bad && (!ok || Date.parse(bad) > Date.parse(ok));
  const title = [ok && `last success ${ok}`, bad && `last failure ${bad}`].filter(Boolean).join('; ') + nextText;
  return failed ? { text: `failed ${formatAge(bad, now)} ago`, failed, title } : { text: `${formatAge(ok, now)} ago`, failed, title };
}
