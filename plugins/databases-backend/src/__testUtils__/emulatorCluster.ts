import type { System } from '@internal/e2e';

/** The `databases.clusters[]` entry of the emulator of `system`, reached with the backend's service account token. */
export const emulatorCluster = (system: System, name = 'local') => ({
  name,
  url: system.emulator.url,
  caData: system.emulator.certs.clusterCa.certPem,
  authProvider: 'serviceAccount',
  serviceAccountToken: 'backstage-backend-token',
});
