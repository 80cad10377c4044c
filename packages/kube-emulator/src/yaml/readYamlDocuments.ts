import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

/**
 * Every YAML document of a file that is not empty (comment-only documents are dropped), read
 * through a JSON copy in the temporary folder keyed by the file's path, size and mtime: the
 * upstream CRDs (3.6 MB) take ~0.8 s to parse as YAML and a few ms as JSON, and every test file
 * that starts a cluster with them, and the mutation run for every mutant, reads them again.
 * Each call returns a fresh copy.
 */
export function readYamlDocuments(file: string): any[] {
  const stat = fs.statSync(file);
  const key = createHash('sha256')
    .update(`${file}\0${stat.size}\0${stat.mtimeMs}`)
    .digest('hex')
    .slice(0, 32);
  const cached = path.join(os.tmpdir(), 'dbaas-upstream-yaml', `${key}.json`);
  try {
    return JSON.parse(fs.readFileSync(cached, 'utf8'));
  } catch {
    const json = JSON.stringify(
      parseAllDocuments(fs.readFileSync(file, 'utf8'))
        .map(doc => doc.toJS())
        .filter(value => value !== null && value !== undefined),
    );
    try {
      fs.mkdirSync(path.dirname(cached), { recursive: true });
      // a reader sees the whole file or none (two processes may write the same one)
      const partial = `${cached}.${process.pid}`;
      fs.writeFileSync(partial, json);
      fs.renameSync(partial, cached);
    } catch {
      // no cache: the next read parses again
    }
    return JSON.parse(json);
  }
}
