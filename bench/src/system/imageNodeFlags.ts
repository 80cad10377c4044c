import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Node's own flags in the last `ENTRYPOINT` (exec form) of a Dockerfile: what sits between the
 * node binary and the script. The bench starts its apiserver with them, so that what it measures
 * is the process as the image runs it.
 */
export function entrypointNodeFlags(dockerfile: string): string[] {
  const lines = dockerfile.replace(/\\\n/g, ' ').split('\n').map(l => l.trim());
  const entrypoint = lines.filter(l => /^ENTRYPOINT\s+\[/i.test(l)).pop();
  if (!entrypoint) return [];
  const argv: string[] = JSON.parse(entrypoint.replace(/^ENTRYPOINT\s+/i, ''));
  const script = argv.findIndex((a, i) => i > 0 && !a.startsWith('-'));
  return argv.slice(1, script < 0 ? undefined : script);
}

/** The apiserver image's node flags (deploy/apiserver.Dockerfile). */
export function imageNodeFlags(repoRoot: string): string[] {
  return entrypointNodeFlags(readFileSync(path.join(repoRoot, 'deploy/apiserver.Dockerfile'), 'utf8'));
}
