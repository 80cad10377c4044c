// Which test file each test is in, as Stryker names tests (jest's full name), recorded during
// Stryker's initial test run. Lives in the sandbox, which Stryker removes after the run.
const fs = require('node:fs');
const path = require('node:path');

const FILE = path.join(__dirname, '.test-files.jsonl');

module.exports = {
  /** Forgets what an earlier run recorded. */
  reset() {
    fs.rmSync(FILE, { force: true });
  },
  record(testName, testPath) {
    fs.appendFileSync(FILE, `${JSON.stringify([testName, testPath])}\n`);
  },
  /** Test file path → the names of its tests; undefined before anything was recorded. */
  read() {
    if (!fs.existsSync(FILE)) return undefined;
    const byFile = new Map();
    for (const line of fs.readFileSync(FILE, 'utf8').split('\n')) {
      if (!line) continue;
      const [name, file] = JSON.parse(line);
      if (!byFile.has(file)) byFile.set(file, []);
      byFile.get(file).push(name);
    }
    return byFile;
  },
};
