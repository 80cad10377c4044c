import { matchesLabels, type LabelRequirement } from '../api/labelSelector';
import type { LabelSelector } from './types';

const OPERATORS = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist']);

/**
 * metav1.LabelSelectorAsSelector, then Matches: matchLabels and matchExpressions all have to
 * hold; an empty selector matches everything. Throws on an operator kube does not know.
 */
export function labelSelectorMatches(
  selector: LabelSelector,
  labels: Record<string, string> | undefined,
): boolean {
  const reqs: LabelRequirement[] = Object.entries(
    selector.matchLabels ?? {},
  ).map(([key, value]) => ({ key, operator: 'In', values: [value] }));
  for (const e of selector.matchExpressions ?? []) {
    if (!OPERATORS.has(e.operator))
      throw new Error(`"${e.operator}" is not a valid label selector operator`);
    reqs.push({
      key: e.key,
      operator: e.operator as LabelRequirement['operator'],
      values: e.values ?? [],
    });
  }
  return matchesLabels(reqs, labels);
}
