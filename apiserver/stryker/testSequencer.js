// Runs only the test files that hold a test the run asks for. Stryker runs a mutant's
// covering tests as a --testNamePattern of their full names, which jest applies per test, after
// loading every test file; with the files recorded by recordTestFiles.js the others are
// skipped. A run without a pattern (Stryker's initial run) runs every file and records anew.
const Sequencer = require('@jest/test-sequencer').default;
const testFiles = require('./testFiles');
const bail = require('./jest-circus-bail');

module.exports = class FilesOfNamedTests extends Sequencer {
  constructor(options) {
    super(options);
    this.pattern = options.globalConfig.testNamePattern;
  }

  sort(tests) {
    // Every run starts without a kill (see jest-circus-bail.js).
    bail.reset();
    if (!this.pattern) {
      // Stryker's initial run records anew; a mutant run of all tests keeps the record.
      if (!process.env.__STRYKER_ACTIVE_MUTANT__) testFiles.reset();
      return super.sort(tests);
    }
    const byFile = testFiles.read();
    if (!byFile) return super.sort(tests);
    // jest matches --testNamePattern case-insensitively.
    const wanted = new RegExp(this.pattern, 'i');
    const kept = tests.filter(
      test =>
        // A file that recorded nothing is kept: it cannot be told apart.
        !byFile.has(test.path) ||
        byFile.get(test.path).some(name => wanted.test(name)),
    );
    // A mutant's run stops at its first failing file (jest-circus-bail.js): the file that
    // failed in the last run first (it likely kills this mutant's neighbours too), then the
    // quickest files, so that a kill comes as early and as cheap as it can.
    for (const test of kept) test.duration = this.time(test);
    const cost = test => test.duration ?? Number.MAX_VALUE;
    return kept.sort(
      (a, b) =>
        Number(this.hasFailed(b)) - Number(this.hasFailed(a)) ||
        cost(a) - cost(b),
    );
  }
};
