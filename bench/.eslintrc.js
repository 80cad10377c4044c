// The bench workspace is never built or published: its files run from source (scripts/bench.mjs,
// jest), so `__dirname` is exactly where the file is (the rule exists for bundled production code).
module.exports = require('@backstage/cli/config/eslint-factory')(__dirname, {
  rules: { 'no-restricted-syntax': 'off' },
});
