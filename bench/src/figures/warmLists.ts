import type { ApiserverProcess } from '../system/ApiserverProcess';
import type { BenchCluster } from '../system/BenchCluster';

/** Serves every list format once, so the measured memory includes pre-encoded bodies. */
export async function warmLists(cluster: BenchCluster, apiserver: ApiserverProcess) {
  const client = cluster.apiserverClient(apiserver.port);
  try {
    for (const accept of ['application/json', 'application/json;as=Table;v=v1;g=meta.k8s.io']) {
      await client.get('/apis/dbaas.platform.dev/v1alpha1/databaseinstances', { headers: { Accept: accept } });
    }
  } finally {
    client.close();
  }
}
