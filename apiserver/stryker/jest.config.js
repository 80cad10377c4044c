// Jest config of the mutation run (`yarn mutate`, apiserver/stryker.config.json): the
// package's own config from backstage-cli (its SWC transforms, src/setupTests.ts, the node
// environment), narrowed to the unit tests of the mutated folders and of the write path that
// calls them. Not apiserver/jest.config.js: backstage-cli would take that for the package's.
const path = require('node:path');
const packageConfig = require('@backstage/cli/config/jest');

// The unit tests of the mutated folders (and of the diagnosis, which tests each adapter's findings); the HTTP write path's own tests (server/mutate) load the
// whole server for every mutant and test the same mapping through it.
const COVERING_TESTS = ['adapters', 'writes', 'status', 'diagnosis'];

module.exports = async () => {
  const config = await packageConfig;
  return {
    ...config,
    testMatch: COVERING_TESTS.map(dir => `<rootDir>/${dir}/**/*.test.ts`),
    setupFilesAfterEnv: [
      ...(config.setupFilesAfterEnv ?? []),
      path.join(__dirname, 'recordTestFiles.js'),
    ],
    testSequencer: path.join(__dirname, 'testSequencer.js'),
    testRunner: path.join(__dirname, 'jest-circus-bail.js'),
  };
};
