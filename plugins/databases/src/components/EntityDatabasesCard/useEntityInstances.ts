import { useApi } from '@backstage/core-plugin-api';
import {
  LABEL_BACKSTAGE_KUBERNETES_ID,
  ListInstancesResponse,
} from '@internal/plugin-databases-common';
import { useCallback, useEffect, useState } from 'react';
import { databasesApiRef } from '../../api/types';
import { useDatabasesEvents, useDebounced } from '../../hooks/useDatabasesEvents';
import { sameInstance } from '../../lib/format';

/** The instances of one catalog entity, kept live by the event stream. */
export function useEntityInstances(entityRef: string, kubernetesId?: string) {
  const api = useApi(databasesApiRef);
  const [data, setData] = useState<ListInstancesResponse>();
  const [error, setError] = useState<unknown>();
  const load = useCallback(async () => {
    try {
      setData(await api.listEntityInstances(entityRef));
      setError(undefined);
    } catch (e) {
      setError(e);
    }
  }, [api, entityRef]);
  useEffect(() => {
    load();
  }, [load]);
  const refetch = useDebounced(load, 500);
  useDatabasesEvents({
    onOpen: refetch,
    onInstance: event => {
      const known = data?.items.some(item => sameInstance(item, event));
      const ours =
        kubernetesId !== undefined &&
        event.instance.metadata.labels?.[LABEL_BACKSTAGE_KUBERNETES_ID] === kubernetesId;
      if (!known && !ours) return;
      setData(current =>
        current && {
          ...current,
          items: current.items.map(item =>
            sameInstance(item, event) ? { cluster: event.cluster, instance: event.instance } : item,
          ),
        },
      );
      refetch();
    },
  });
  return { data, error, retry: load };
}
