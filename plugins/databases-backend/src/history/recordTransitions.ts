import type { LoggerService } from '@backstage/backend-plugin-api';
import type { ClusterSet } from '../watch/ClusterSet';
import type { HistoryStore } from './HistoryStore';

/** Stores every phase the shared watches see (deduplicated by the store); returns the unsubscriber. */
export function recordTransitions(clusters: ClusterSet, history: HistoryStore, logger: LoggerService): () => void {
  return clusters.subscribe({
    onInstance: change => {
      const phase = change.instance.status?.phase;
      if (change.type === 'DELETED' || !phase) return;
      const { namespace = '', name = '' } = change.instance.metadata;
      history
        .recordPhase(
          { cluster: change.cluster, namespace, name },
          phase,
          {
            reason: change.instance.status?.reason,
            message: change.instance.status?.message,
            resourceVersion: change.instance.metadata.resourceVersion,
          },
        )
        .catch(e => logger.warn(`databases: could not record the phase of ${namespace}/${name}: ${e}`));
    },
  });
}
