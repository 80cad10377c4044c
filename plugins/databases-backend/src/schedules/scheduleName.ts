/**
 * The longest schedule name the apiserver takes: the operators name what they make after it
 * (mariadb-operator its CronJob, CloudNativePG its Backups `<name>-<14 digits>`) within a
 * 63-character label.
 */
const MAX_NAME = 48;
/** What generateName adds (five random characters). */
const SUFFIX_LENGTH = 5;
const WORD = '-backups';

/**
 * The name of a new backup schedule of `instance`: `<instance>-backups`, so that `kubectl get
 * dbbs` reads whose; the instance's dots become dashes and it is cut to fit. `asPrefix`: ending
 * in `-` with room for generateName's suffix (the instance has such a schedule already).
 */
export function scheduleName(instance: string, options: { asPrefix?: boolean } = {}): string {
  const room = MAX_NAME - WORD.length - (options.asPrefix ? 1 + SUFFIX_LENGTH : 0);
  const base = instance.replace(/\./g, '-').slice(0, room).replace(/-+$/, '');
  return options.asPrefix ? `${base}${WORD}-` : `${base}${WORD}`;
}
