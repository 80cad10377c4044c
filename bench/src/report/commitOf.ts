import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The checked-out commit (short sha) read from `.git` files, or `local` when there is no
 * repository (a tarball) or HEAD cannot be resolved. Uncommitted changes are not detected.
 */
export function commitOf(repoRoot: string): string {
  if (!existsSync(path.join(repoRoot, '.git'))) return 'local';
  try {
    const gitDir = resolveGitDir(repoRoot);
    const head = readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    if (!head.startsWith('ref:')) return head.slice(0, 7);
    const ref = head.slice(4).trim();
    const loose = path.join(gitDir, ref);
    if (existsSync(loose)) return readFileSync(loose, 'utf8').trim().slice(0, 7);
    const commonDir = existsSync(path.join(gitDir, 'commondir'))
      ? path.resolve(gitDir, readFileSync(path.join(gitDir, 'commondir'), 'utf8').trim())
      : gitDir;
    const common = path.join(commonDir, ref);
    if (existsSync(common)) return readFileSync(common, 'utf8').trim().slice(0, 7);
    const packed = readFileSync(path.join(commonDir, 'packed-refs'), 'utf8');
    const line = packed.split('\n').find(l => l.endsWith(` ${ref}`));
    return line ? line.slice(0, 7) : 'local';
  } catch {
    return 'local';
  }
}

function resolveGitDir(repoRoot: string): string {
  const dotGit = path.join(repoRoot, '.git');
  try {
    const text = readFileSync(dotGit, 'utf8');
    if (text.startsWith('gitdir:')) return path.resolve(repoRoot, text.slice(7).trim());
  } catch {
    // a directory
  }
  return dotGit;
}
