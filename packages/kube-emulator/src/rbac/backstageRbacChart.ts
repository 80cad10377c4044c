import path from 'node:path';
import { repositoryRoot } from './helmBinary';
import type { ChartInstall } from './renderChartRbac';

// eslint-disable-next-line no-restricted-syntax
const SOURCE_DIR = __dirname;

/** The Backstage backend's RBAC chart (deploy/backstage), the one docs/install.md installs. */
export const BACKSTAGE_CHART_DIR = path.join(
  repositoryRoot(SOURCE_DIR) ?? path.resolve(SOURCE_DIR, '../../../..'),
  'deploy/backstage',
);

/**
 * How the emulator installs it: docs/install.md's `helm install dbaas-backstage deploy/backstage
 * -n backstage`, bound to the ServiceAccount backstage/backend, the identity of the auth file's
 * `backstage-backend-token` (the token the demo's and the tests' Backstage backends use).
 */
export const EMULATOR_BACKSTAGE_INSTALL: ChartInstall = {
  release: 'dbaas-backstage',
  namespace: 'backstage',
  values: ['serviceAccount.name=backend'],
};
