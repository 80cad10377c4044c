import { jest } from '@jest/globals';

// Integration tests here start HTTPS servers and real kubectl processes; on a loaded 2-core
// machine jest's 5 s default turns slowness into failures. A hang still fails, just later.
jest.setTimeout(30_000);
