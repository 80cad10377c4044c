import { jest } from '@jest/globals';

// End-to-end tests start the emulator, the apiserver and real kubectl processes; on a loaded
// 2-core machine jest's 5 s default turns slowness into failures. A hang still fails, just later.
jest.setTimeout(120_000);
