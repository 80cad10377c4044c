/** Label values: at most 63 characters, `[A-Za-z0-9._-]`, alphanumeric at both ends. */
const MAX_LABEL_VALUE = 63;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** True when `value` may be used as a Kubernetes label value. */
export const isLabelValue = (value: string) =>
  value.length <= MAX_LABEL_VALUE && LABEL_VALUE.test(value);

/**
 * Turns a user name (`user:default/alice`, `system:serviceaccount:team-a:ci`, `alice@example.com`)
 * into a valid label value: every run of disallowed characters becomes one `_`, the result is
 * cut to 63 characters and trimmed to alphanumerics at both ends. Lossy by design: the full
 * name goes into an annotation beside it.
 */
export function toLabelValue(name: string): string {
  const replaced = name.replace(/[^A-Za-z0-9._-]+/g, '_');
  return replaced
    .slice(0, MAX_LABEL_VALUE)
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/[^A-Za-z0-9]+$/, '');
}
