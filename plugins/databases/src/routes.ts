import { createRouteRef } from '@backstage/core-plugin-api';

/**
 * The databases page. A legacy route ref: it also implements the new frontend system's
 * RouteRef, so both systems resolve it (core-plugin-api's useRouteRef asks either).
 *
 * @public
 */
export const rootRouteRef = createRouteRef({ id: 'databases' });
