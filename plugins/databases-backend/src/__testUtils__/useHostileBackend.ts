import { afterAll, beforeAll } from '@jest/globals';
import { backendClient, type BackendClient } from './hostileBackendProbe';
import { startHostileBackend, type HostileBackend } from './startHostileBackend';

/**
 * The hostile backend and a client of it, started before the tests of the calling `describe`
 * and stopped after them; usable in hooks and tests only (the suite body runs first).
 * `known()` is every instance (namespace, name) served once it had started (and, with
 * `pauseOperators`, the operators were paused, so that only requests change the cluster).
 */
export function useHostileBackend(options: { pauseOperators?: boolean } = {}) {
  let started: { b: HostileBackend; client: BackendClient; known: Array<[string, string]> } | undefined;
  beforeAll(async () => {
    const b = await startHostileBackend(options);
    started = { b, client: backendClient(b), known: b.system.apiserver.store.list().map(i => [i.metadata.namespace ?? '', i.metadata.name ?? '']) };
  });
  afterAll(async () => {
    started?.client.close();
    await started?.b.stop();
  });
  const now = () => {
    if (!started) throw new Error('the hostile backend is not started yet');
    return started;
  };
  const backend: Omit<HostileBackend, 'stop'> = {
    get system() {
      return now().b.system;
    },
    get server() {
      return now().b.server;
    },
    get port() {
      return now().b.port;
    },
    get logs() {
      return now().b.logs;
    },
  };
  const client: Omit<BackendClient, 'close'> = {
    send: r => now().client.send(r),
    family: (name, arb, toRequest, runs) => now().client.family(name, arb, toRequest, runs),
  };
  return { backend, client, known: () => now().known };
}
