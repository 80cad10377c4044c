import { identityApiRef, useApi } from '@backstage/core-plugin-api';
import { catalogApiRef } from '@backstage/plugin-catalog-react';
import { stringifyEntityRef } from '@backstage/catalog-model';
import { useEffect, useState } from 'react';

/** The user's groups; when they have none, every group in the catalog (the backend's policy decides). */
export function useOwnerOptions(): { owners: string[]; fromMembership: boolean; loading: boolean } {
  const identityApi = useApi(identityApiRef);
  const catalogApi = useApi(catalogApiRef);
  const [state, setState] = useState({ owners: [] as string[], fromMembership: true, loading: true });
  useEffect(() => {
    let cancelled = false;
    (async () => {
      const identity = await identityApi.getBackstageIdentity();
      let owners = identity.ownershipEntityRefs.filter(ref => ref.startsWith('group:'));
      let fromMembership = true;
      if (owners.length === 0) {
        fromMembership = false;
        const { items } = await catalogApi.getEntities({
          filter: { kind: 'Group' },
          fields: ['kind', 'metadata.name', 'metadata.namespace'],
        });
        owners = items.map(e => stringifyEntityRef(e));
      }
      if (!cancelled) setState({ owners: owners.sort(), fromMembership, loading: false });
    })().catch(() => {
      if (!cancelled) setState({ owners: [], fromMembership: false, loading: false });
    });
    return () => {
      cancelled = true;
    };
  }, [identityApi, catalogApi]);
  return state;
}
