/** The longest backup name: the operators name their Jobs after it, a DNS-1123 label. */
const MAX_NAME = 63;
/** `-yyyymmddhhmmss`. */
const STAMP_LENGTH = 15;

/**
 * The name of a backup of `instance` taken at `at`: `<instance>-<yyyymmddhhmmss>` (UTC), so that
 * `kubectl get dbb` reads which instance and when. An instance name is a DNS subdomain (dots,
 * up to 253): its dots become dashes and it is cut so that the whole stays a 63-character label.
 */
export function backupName(instance: string, at: Date): string {
  const stamp = at.toISOString().replace(/\.\d+Z$/, '').replace(/\D/g, '');
  const base = instance.replace(/\./g, '-').slice(0, MAX_NAME - STAMP_LENGTH).replace(/-+$/, '');
  return `${base}-${stamp}`;
}
