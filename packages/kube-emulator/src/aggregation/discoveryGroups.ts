import type { StoredObject } from '../store/types';
import { apiServiceSpec } from './apiService';

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;
const STABILITY: Record<string, number> = { alpha: 0, beta: 1 };

/** Byte-wise string order (Go's `<` on strings) as a comparator. */
export function compareStrings(a: string, b: string): number {
  if (a < b) return -1;
  if (a > b) return 1;
  return 0;
}

/**
 * kube's version ordering (apimachinery `CompareKubeAwareVersionStrings`), as a sort comparator:
 * GA before beta before alpha, higher numbers first, non-kube-like versions last alphabetically.
 */
export function compareKubeVersions(a: string, b: string): number {
  const ma = KUBE_VERSION.exec(a);
  const mb = KUBE_VERSION.exec(b);
  if (!ma || !mb) {
    if (ma) return -1;
    if (mb) return 1;
    return compareStrings(a, b);
  }
  const stability = (m: RegExpExecArray) => STABILITY[m[2] ?? ''] ?? 2;
  if (stability(ma) !== stability(mb)) return stability(mb) - stability(ma);
  if (Number(ma[1]) !== Number(mb[1])) return Number(mb[1]) - Number(ma[1]);
  return Number(mb[3] ?? 0) - Number(ma[3] ?? 0);
}

/** One API group as listed in `/apis`. */
export interface DiscoveryGroup {
  name: string;
  versions: string[];
  preferredVersion: string;
}

/**
 * The groups served through APIServices, ordered as kube-apiserver lists them: by the highest
 * `groupPriorityMinimum` (desc) then name; versions by `versionPriority` (desc) then kube
 * version order; the first version is the preferred one.
 */
export function discoveryGroups(apiServices: StoredObject[]): DiscoveryGroup[] {
  const byGroup = new Map<
    string,
    { priority: number; versions: Array<{ version: string; priority: number }> }
  >();
  for (const obj of apiServices) {
    const spec = apiServiceSpec(obj);
    if (!spec.group || !spec.version) continue;
    const entry = byGroup.get(spec.group) ?? { priority: 0, versions: [] };
    entry.priority = Math.max(entry.priority, spec.groupPriorityMinimum ?? 0);
    entry.versions.push({
      version: spec.version,
      priority: spec.versionPriority ?? 0,
    });
    byGroup.set(spec.group, entry);
  }
  return [...byGroup.entries()]
    .sort(
      ([na, a], [nb, b]) => b.priority - a.priority || compareStrings(na, nb),
    )
    .map(([name, entry]) => {
      const versions = entry.versions
        .sort(
          (a, b) =>
            b.priority - a.priority ||
            compareKubeVersions(a.version, b.version),
        )
        .map(v => v.version);
      return { name, versions, preferredVersion: versions[0] };
    });
}
