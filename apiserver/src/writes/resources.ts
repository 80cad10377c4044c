import type { ResourceList } from '@internal/plugin-databases-common';

type Requirements = { requests?: ResourceList; limits?: ResourceList };

/**
 * A core/v1 ResourceRequirements with cpu and memory taken from `next` and every other entry
 * (ephemeral-storage, hugepages, claims) of `current` kept. Empty lists are dropped.
 */
export function mergeResources(
  current: unknown,
  next: Requirements | undefined,
): Record<string, unknown> | undefined {
  const base =
    current && typeof current === 'object' && !Array.isArray(current)
      ? { ...(current as Record<string, unknown>) }
      : {};
  for (const key of ['requests', 'limits'] as const) {
    const list = { ...((base[key] as Record<string, unknown>) ?? {}) };
    delete list.cpu;
    delete list.memory;
    Object.assign(list, next?.[key]);
    if (Object.keys(list).length > 0) base[key] = list;
    else delete base[key];
  }
  return Object.keys(base).length > 0 ? base : undefined;
}

/** cpu/memory requests and limits as a fresh ResourceRequirements (for new objects). */
export function resourceRequirements(
  next: Requirements | undefined,
): Record<string, unknown> | undefined {
  return mergeResources(undefined, next);
}
