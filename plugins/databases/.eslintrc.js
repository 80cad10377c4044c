module.exports = require('@backstage/cli/config/eslint-factory')(__dirname, {
  overrides: [
    {
      // Test doubles used only by tests.
      files: ['src/testUtils/**'],
      rules: { '@backstage/no-undeclared-imports': 'off' },
    },
  ],
});
