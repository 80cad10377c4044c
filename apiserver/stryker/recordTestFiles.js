// Records the file of every test during Stryker's initial test run (no mutant active), for
// testSequencer.js. Stryker's jest runner filters a mutant's tests by name only, so jest would
// otherwise load every test file for every mutant.
const { afterEach, expect } = require('@jest/globals');
const testFiles = require('./testFiles');

if (!process.env.__STRYKER_ACTIVE_MUTANT__) {
  afterEach(() => {
    const { currentTestName, testPath } = expect.getState();
    if (currentTestName && testPath)
      testFiles.record(currentTestName, testPath);
  });
}
