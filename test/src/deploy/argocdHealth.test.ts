import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { DATABASE_PHASES } from '@internal/plugin-databases-common';
import { repoRoot } from './support/tools';

/**
 * deploy/argocd's health check for DatabaseInstance, in Argo CD's resource_customizations
 * layout: health.lua is run with Debian's lua5.1 (Argo CD runs it with gopher-lua, Lua 5.1)
 * against every testdata file health_test.yaml lists, and its status and message compared.
 */
const LUA = 'lua5.1';
const dir = path.join(
  repoRoot,
  'deploy/argocd/resource_customizations/dbaas.platform.dev/DatabaseInstance',
);
const healthLua = path.join(dir, 'health.lua');

interface HealthTest {
  healthStatus: { status: string; message: string };
  inputPath: string;
}
const tests: HealthTest[] = parse(
  readFileSync(path.join(dir, 'health_test.yaml'), 'utf8'),
).tests;

/** A JSON value as a Lua literal (null is nil: the key is left out, as Argo CD's conversion does). */
function toLua(value: unknown): string {
  if (value === null || value === undefined) return 'nil';
  if (typeof value === 'string') {
    // decimal escapes for everything but printable ASCII: valid in every Lua 5.1 string
    return `"${Array.from(Buffer.from(value, 'utf8'))
      .map(b =>
        b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c
          ? String.fromCharCode(b)
          : `\\${b}`,
      )
      .join('')}"`;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a JSON number: ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `{${value.map(toLua).join(', ')}}`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => `[${toLua(k)}] = ${toLua(v)}`)
      .join(', ')}}`;
  }
  throw new Error(`cannot convert ${typeof value} to Lua`);
}

/** The error when the interpreter cannot be started: no skip, say what to install. */
function luaMissing(error: Error): Error {
  return new Error(
    `${LUA} is not on PATH (${error.message}): install Debian's lua5.1 ` +
      '(apt-get install -y lua5.1), as .ci/run does; the Argo CD health check is tested with it',
  );
}

/** Runs health.lua on an object as Argo CD does: `obj` global, the chunk returns the health. */
function health(object: unknown): { status: string; message: string } {
  const harness = [
    `obj = ${toLua(JSON.parse(JSON.stringify(object)))}`,
    `local hs = dofile(${toLua(healthLua)})`,
    `if type(hs) ~= "table" then error("health.lua returned " .. type(hs)) end`,
    `io.write(tostring(hs.status), "\\n", hs.message == nil and "" or tostring(hs.message))`,
  ].join('\n');
  const r = spawnSync(LUA, ['-'], {
    input: harness,
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (r.error) throw luaMissing(r.error);
  if (r.status !== 0) throw new Error(`${LUA} exited ${r.status}: ${r.stderr}`);
  const newline = r.stdout.indexOf('\n');
  return {
    status: r.stdout.slice(0, newline),
    message: r.stdout.slice(newline + 1),
  };
}

describe('deploy/argocd: DatabaseInstance health.lua', () => {
  it(`runs with ${LUA} (Debian package lua5.1; .ci/run installs it)`, () => {
    const r = spawnSync(LUA, ['-v'], { encoding: 'utf8' });
    if (r.error) throw luaMissing(r.error);
    expect(`${r.stdout}${r.stderr}`).toMatch(/Lua 5\.1/);
  });

  it('health_test.yaml lists every testdata file, and the testdata holds every phase', () => {
    expect(tests.map(t => t.inputPath).sort()).toEqual(
      readdirSync(path.join(dir, 'testdata'))
        .map(f => `testdata/${f}`)
        .sort(),
    );
    const phases = new Set(
      tests.map(
        t =>
          parse(readFileSync(path.join(dir, t.inputPath), 'utf8'))?.status
            ?.phase,
      ),
    );
    expect(DATABASE_PHASES.filter(p => !phases.has(p))).toEqual([]);
  });

  it.each(tests.map(t => [t.inputPath, t] as const))('%s', (_file, t) => {
    const object = parse(readFileSync(path.join(dir, t.inputPath), 'utf8'));
    expect(health(object)).toEqual(t.healthStatus);
  });

  it('maps every phase, Paused to Suspended, and an unknown phase to Unknown', () => {
    const statusOf = (phase: string) =>
      health({
        status: { phase, reason: 'R', message: 'words "quoted"\nand ü' },
      });
    expect(
      Object.fromEntries(DATABASE_PHASES.map(p => [p, statusOf(p).status])),
    ).toEqual({
      Pending: 'Progressing',
      Provisioning: 'Progressing',
      Ready: 'Healthy',
      Updating: 'Progressing',
      Degraded: 'Degraded',
      Failed: 'Degraded',
      Paused: 'Suspended',
      Deleting: 'Progressing',
      Unknown: 'Unknown',
    });
    expect(statusOf('Ready').message).toBe('words "quoted"\nand ü');
    expect(statusOf('Later').status).toBe('Unknown');
  });
});
