import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { kubectlBinaries } from '../support/kubectl';
import { startSystem } from '../support/startSystem';
import { Kubectl } from './Kubectl';
import type { TargetChoice } from './chooseTarget';

/** A cluster the conformance suite talks to only through kubectl. */
export interface ConformanceCluster {
  /** `emulator` or `kubeconfig`, for test names. */
  name: string;
  kubectl: Kubectl;
  close(): Promise<void>;
}

/**
 * Opens the chosen target. The emulator starts bare (no CRDs, no emulated operators, no demo
 * objects) so that the suite sets up and drives everything exactly as on a real cluster.
 */
export async function openCluster(
  choice: Exclude<TargetChoice, { kind: 'skip' }>,
): Promise<ConformanceCluster> {
  const file = process.env.KUBECTL ?? kubectlBinaries([])[0].file;
  if (choice.kind === 'kubeconfig') {
    const cache = await mkdtemp(path.join(tmpdir(), 'dbaas-conformance-'));
    return {
      name: 'kubeconfig',
      kubectl: new Kubectl(file, {
        KUBECONFIG: choice.kubeconfig,
        KUBECACHEDIR: cache,
      }),
      close: () => rm(cache, { recursive: true, force: true }),
    };
  }
  const system = await startSystem({ seed: false, operators: false, crds: [] });
  return {
    name: 'emulator',
    kubectl: new Kubectl(file, {
      KUBECONFIG: system.kubeconfig,
      HOME: system.dir,
      KUBECACHEDIR: path.join(system.dir, 'cache'),
    }),
    close: () => system.stop(),
  };
}
