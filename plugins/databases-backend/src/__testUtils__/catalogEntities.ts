const component = (name: string, owner: string) => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name, namespace: 'default', annotations: { 'backstage.io/kubernetes-id': name } },
  spec: { type: 'service', owner, lifecycle: 'production' },
});

/** The catalog Component `orders` of team-a (its kubernetes-id labels the demo's team-a databases). */
export const ORDERS_COMPONENT = component('orders', 'group:default/team-a');

/** The catalog Component `search` of team-b. */
export const SEARCH_COMPONENT = component('search', 'group:default/team-b');
