import { jest } from '@jest/globals';
import fc from 'fast-check';

// End-to-end tests start the emulator, the apiserver and real kubectl processes; on a loaded
// 2-core machine jest's 5 s default turns slowness into failures. A hang still fails, just later.
jest.setTimeout(120_000);

// FC_SEED (and FC_PATH) replay a failed property run with the seed and path fast-check printed:
// FC_SEED=-17379705 npm test -- --no-static <file> (see docs/testing.md).
if (process.env.FC_SEED) {
  fc.configureGlobal({
    ...fc.readConfigureGlobal(),
    seed: Number(process.env.FC_SEED),
    ...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}),
  });
}
