import { afterAll, beforeAll } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
// a real kube-apiserver's list paging, label selectors, watch and 410 (tests only)
import { KubeEmulator } from '@internal/kube-emulator';

/**
 * The kube emulator without operators, started before the calling `describe`'s tests and
 * stopped after them, and a KubeConfig for it; `seed` writes the objects the tests read. Usable
 * in hooks and tests only (the suite body runs first).
 */
export function useBareEmulator(seed: (emulator: KubeEmulator) => void = () => {}) {
  const started: { emulator?: KubeEmulator; kc?: KubeConfig } = {};
  beforeAll(async () => {
    started.emulator = await KubeEmulator.start({ operators: false });
    started.kc = new KubeConfig();
    started.kc.loadFromString(started.emulator.kubeconfig());
    seed(started.emulator);
  });
  afterAll(async () => {
    await started.emulator?.stop();
  });
  return {
    get emulator(): KubeEmulator {
      return started.emulator!;
    },
    get kc(): KubeConfig {
      return started.kc!;
    },
  };
}
