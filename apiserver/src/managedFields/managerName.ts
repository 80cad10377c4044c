/**
 * The manager a write is recorded under: its `fieldManager`, else the product of its
 * User-Agent (`kubectl/v1.33.0 (linux/amd64)` → `kubectl`), printable characters only and at
 * most 128, as kube-apiserver names it.
 */
export function managerName(fieldManager: string | undefined, userAgent: string | undefined): string {
  if (fieldManager) return fieldManager;
  const product = (userAgent ?? '').split('/')[0];
  return [...product].filter(c => /\P{C}/u.test(c)).join('').slice(0, 128);
}
