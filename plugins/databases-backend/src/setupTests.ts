import fc from 'fast-check';

// FC_SEED (and FC_PATH) replay a failed property run with the seed and path fast-check printed:
// FC_SEED=-17379705 npm test -- --no-static <file> (see docs/testing.md).
if (process.env.FC_SEED) {
  fc.configureGlobal({
    ...fc.readConfigureGlobal(),
    seed: Number(process.env.FC_SEED),
    ...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}),
  });
}
