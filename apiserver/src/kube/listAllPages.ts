import type { KubeConfig } from '@kubernetes/client-node';
import type { KubeObject } from '../adapters/types';
import { kubeRequest } from './kubeRequest';

/** Items per page, as client-go's reflectors list (pager.PageSize). */
export const LIST_PAGE_SIZE = 500;

/**
 * Lists every object under `path` in pages of {@link LIST_PAGE_SIZE} (one consistent snapshot),
 * handing each item to `onItem` as its page comes: a list of 100,000 pods is never one response
 * held whole (it was ~100 MB of JSON at once, and the process kept that memory). Resolves the
 * list's resourceVersion. An error (a continue token expired, 410) rejects: the caller lists
 * again from the start, as it does after any failed list.
 */
export async function listAllPages(
  kc: KubeConfig,
  path: string,
  query: Record<string, string>,
  onItem: (obj: KubeObject) => void,
  stopped: () => boolean = () => false,
  accept?: string,
): Promise<string | undefined> {
  let token: string | undefined;
  let resourceVersion: string | undefined;
  do {
    const q = new URLSearchParams({ ...query, limit: String(LIST_PAGE_SIZE), ...(token ? { continue: token } : {}) });
    const page = await kubeRequest<{ items?: KubeObject[]; metadata?: { resourceVersion?: string; continue?: string } }>(kc, {
      method: 'GET',
      path: `${path}?${q}`,
      accept,
      timeoutMs: 120_000,
    });
    for (const item of page.items ?? []) if (!stopped()) onItem(item);
    token = page.metadata?.continue || undefined;
    resourceVersion = page.metadata?.resourceVersion ?? resourceVersion;
  } while (token && !stopped());
  return resourceVersion;
}
