import { afterAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, portFree } from '../support/freePort';
import { kubectlBinaries, runKubectl } from '../support/kubectl';
import { repoRoot } from '../ui/support/startPortal';

// The README's first command, without the portal (the browser tests start that one): what a
// newcomer types, on ports and a state directory of its own so it never meets a running `npm start`.
describe('npm start (scripts/start.mjs --no-portal)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'dbaas-start-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('starts the emulator and the apiserver, prints how to reach them, kubectl lists the demo, and Ctrl-C stops everything in order', async () => {
    const [emulatorPort, apiserverPort] = [await freePort(), await freePort()];
    const stateDir = path.join(dir, 'state');
    const child = spawn(process.execPath, ['scripts/start.mjs', '--no-portal'], {
      cwd: repoRoot,
      env: { ...process.env, DBAAS_STATE_DIR: stateDir, DBAAS_EMULATOR_PORT: String(emulatorPort), DBAAS_APISERVER_PORT: String(apiserverPort) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', d => (output += d));
    child.stderr.on('data', d => (output += d));
    const exited = new Promise<number | null>(resolve => child.once('exit', code => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`not up within 120 s:\n${output}`)), 120_000);
        child.stdout.on('data', () => {
          if (!output.includes('Everything is up')) return;
          clearTimeout(timer);
          resolve();
        });
        exited.then(code => {
          clearTimeout(timer);
          reject(new Error(`exited with ${code} before it was up:\n${output}`));
        });
      });
      const kubeconfig = path.join(stateDir, 'kubeconfig');
      expect(output).toContain(`export KUBECONFIG=${kubeconfig}`);
      const { file } = kubectlBinaries([])[0];
      const listed = await runKubectl(file, kubeconfig, dir, ['get', 'databaseinstances', '-A']);
      expect(listed.stderr).toBe('');
      expect(listed.stdout).toMatch(/^team-a\s+orders-db\s+mariadb\s/m);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    // the apiserver went before the emulator: its shutdown did not retry watches of a cluster gone
    expect(output).not.toMatch(/ECONNREFUSED/);
    // nothing outlived the stop
    expect(await portFree(emulatorPort)).toBe(true);
    expect(await portFree(apiserverPort)).toBe(true);
  }, 180_000);
});
