import path from 'node:path';

/** The example catalog the app ships (teams, users, components with kubernetes-id annotations). */
export const EXAMPLE_CATALOG = path.resolve(__dirname, '../../../../catalog/entities.yaml');

/** `catalog` config of a test backend reading the example catalog, re-processed every second. */
export function exampleCatalogConfig() {
  return {
    rules: [{ allow: ['Component', 'System', 'API', 'Resource', 'Location', 'User', 'Group'] }],
    locations: [{ type: 'file', target: EXAMPLE_CATALOG }],
    processingInterval: { seconds: 1 },
  };
}
