import { useRouteRef } from '@backstage/core-plugin-api';
import { rootRouteRef } from '../routes';

/** Where the page lives when the app did not mount it (cards still need somewhere to link). */
const DEFAULT_BASE_PATH = '/databases';

/** Absolute path of the databases page in this app (e.g. `/databases`). */
export function useBasePath(): string {
  try {
    // useRouteRef runs its hooks before it throws for an unmounted ref, so catching keeps hook order.
    return useRouteRef(rootRouteRef)();
  } catch {
    return DEFAULT_BASE_PATH;
  }
}
