import { afterAll, beforeAll } from '@jest/globals';
import type { StartSystemOptions } from '../../support';
import { startHostileHarness, type HostileHarness } from '../hostileHarness';

/**
 * A harness started before the tests of the calling `describe` and stopped after them. It is
 * usable in hooks and tests only (the suite body runs before anything is started).
 */
export function useHostileHarness(options: StartSystemOptions = {}): Omit<HostileHarness, 'stop'> {
  let h: HostileHarness | undefined;
  beforeAll(async () => {
    h = await startHostileHarness(options);
  });
  afterAll(async () => {
    await h?.stop();
  });
  const started = () => {
    if (!h) throw new Error('the hostile harness is not started yet');
    return h;
  };
  return {
    get system() {
      return started().system;
    },
    get client() {
      return started().client;
    },
    send: (caller, probe) => started().send(caller, probe),
    storeRv: () => started().storeRv(),
    wroteSince: rv => started().wroteSince(rv),
    servedRv: () => started().servedRv(),
    instances: () => started().instances(),
  };
}
