import type { DatabasesFetchError } from '@internal/plugin-databases-common';
import type { KubeClusterClient } from '../kube/KubeClusterClient';
import { notAnsweredSince } from '../kube/ClusterReachability';
import { toFetchError } from '../kube/KubeRequestError';

/** One cluster's share of an answer over several clusters. */
export interface ClusterPart<T> {
  items: T[];
  errors: DatabasesFetchError[];
}

/**
 * Runs `part` for one cluster of an answer over several, so that this cluster never holds up the
 * others: a cluster known not to answer is an `errors[]` entry at once, without a request; any
 * other gets `waitMs`, after which the answer goes on without it (its work carries on, and what
 * it learns, an access review or that the cluster is silent, serves the next answers). Having
 * given up once, the next answers do not wait for it until it answers something.
 */
export async function boundedClusterPart<T>(
  client: KubeClusterClient,
  waitMs: number,
  part: () => Promise<T[]>,
): Promise<ClusterPart<T>> {
  const cluster = client.cluster.name;
  const known = client.reachability.knownNotAnswering();
  if (known) return { items: [], errors: [known] };
  const since = Date.now();
  const work = part().then(
    (items): ClusterPart<T> => ({ items, errors: [] }),
    (e): ClusterPart<T> => ({ items: [], errors: [toFetchError(cluster, e)] }),
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<ClusterPart<T>>(resolve => {
    timer = setTimeout(() => {
      client.reachability.gaveUp(since, waitMs);
      resolve({ items: [], errors: [notAnsweredSince(cluster, since, `no answer within ${waitMs} ms`).toFetchError()] });
    }, waitMs);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
