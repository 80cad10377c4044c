/**
 * Kubernetes resourceVersions are opaque strings, but every object we project comes from one
 * kube-apiserver whose RVs are etcd revisions (decimal integers); comparing them numerically
 * is what keeps our RVs comparable across replicas and restarts. Unparseable RVs count as 0.
 */
export function rvToBigInt(rv: string | undefined): bigint {
  if (!rv || !/^\d+$/.test(rv)) {
    return 0n;
  }
  return BigInt(rv);
}

/** The largest of some resourceVersions, as a decimal string ("0" for none). */
export function maxResourceVersion(...rvs: Array<string | undefined>): string {
  let max = 0n;
  for (const rv of rvs) {
    const n = rvToBigInt(rv);
    if (n > max) {
      max = n;
    }
  }
  return max.toString();
}

/** True when `a` is strictly newer than `b`. */
export function isNewer(a: string | undefined, b: string | undefined): boolean {
  return rvToBigInt(a) > rvToBigInt(b);
}
