// jest-circus, stopping a mutant's run at its first failing test file: the mutant is killed
// then, and the files after it are not loaded (Stryker's jest runner cannot bail: jest has no
// programmatic bail). Outside mutant runs (Stryker's initial run) it is jest-circus as it is.
// Named for jest-circus: Stryker's perTest coverage requires a jest-circus test runner.
const fs = require('node:fs');
const path = require('node:path');
const { createEmptyTestResult } = require('@jest/test-result');
const circus = require('jest-circus/runner').default;

// One marker per test runner process: with `--concurrency` above 1 the runners share this
// sandbox, and a kill in one must not skip another's mutant (it then counted as survived).
const KILLED = path.join(__dirname, `.killed-${process.pid}`);

module.exports = async (
  globalConfig,
  config,
  environment,
  runtime,
  testPath,
  sendMessageToJest,
) => {
  const mutantRun = Boolean(process.env.__STRYKER_ACTIVE_MUTANT__);
  if (mutantRun && fs.existsSync(KILLED)) return skipped(testPath);
  const result = await circus(
    globalConfig,
    config,
    environment,
    runtime,
    testPath,
    sendMessageToJest,
  );
  if (mutantRun && result.numFailingTests > 0) fs.writeFileSync(KILLED, '');
  return result;
};

/** The result of a file not run: one skipped test (jest refuses a file with none). */
function skipped(testPath) {
  const title = `not run: an earlier file killed the mutant (${path.basename(testPath)})`;
  return {
    ...createEmptyTestResult(),
    numPendingTests: 1,
    testResults: [
      {
        ancestorTitles: [],
        duration: 0,
        failureDetails: [],
        failureMessages: [],
        fullName: title,
        numPassingAsserts: 0,
        status: 'pending',
        title,
      },
    ],
  };
}

/** Forgets the previous run's kill (called as every run starts). */
module.exports.reset = () => fs.rmSync(KILLED, { force: true });
