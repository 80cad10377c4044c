import type { LabelSelector } from './types';

/**
 * metav1.LabelSelector semantics: every `matchLabels` pair and every expression must hold;
 * `NotIn` and `DoesNotExist` hold for an absent key; an empty selector matches everything.
 */
export function matchesLabelSelector(
  selector: LabelSelector,
  labels: Record<string, string>,
): boolean {
  const has = (key: string) =>
    Object.prototype.hasOwnProperty.call(labels, key);
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (!has(key) || labels[key] !== value) return false;
  }
  for (const e of selector.matchExpressions ?? []) {
    const values = e.values ?? [];
    let ok: boolean;
    switch (e.operator) {
      case 'In':
        ok = has(e.key) && values.includes(labels[e.key]);
        break;
      case 'NotIn':
        ok = !has(e.key) || !values.includes(labels[e.key]);
        break;
      case 'Exists':
        ok = has(e.key);
        break;
      default:
        ok = !has(e.key);
    }
    if (!ok) return false;
  }
  return true;
}
