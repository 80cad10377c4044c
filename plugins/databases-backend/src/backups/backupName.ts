/** The longest backup name: the operators name their Jobs after it, a DNS-1123 label. */
const MAX_NAME = 63;
/** `-yyyymmddhhmmss`. */
const STAMP_LENGTH = 15;
/** What generateName adds (kube-apiserver's and the apiserver's random suffix: five characters). */
const SUFFIX_LENGTH = 5;

/**
 * The name of a backup of `instance` taken at `at`: `<instance>-<yyyymmddhhmmss>` (UTC), so that
 * `kubectl get dbb` reads which instance and when. An instance name is a DNS subdomain (dots,
 * up to 253): its dots become dashes and it is cut so that the whole stays a 63-character label.
 * `asPrefix`: the same ending in `-`, room left for generateName's suffix (a second backup in
 * the same second).
 */
export function backupName(instance: string, at: Date, options: { asPrefix?: boolean } = {}): string {
  const stamp = at.toISOString().replace(/\.\d+Z$/, '').replace(/\D/g, '');
  const room = MAX_NAME - STAMP_LENGTH - (options.asPrefix ? 1 + SUFFIX_LENGTH : 0);
  const base = instance.replace(/\./g, '-').slice(0, room).replace(/-+$/, '');
  return options.asPrefix ? `${base}-${stamp}-` : `${base}-${stamp}`;
}
