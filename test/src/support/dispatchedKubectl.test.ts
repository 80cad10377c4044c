import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { dispatchedKubectl } from './kubectl';

const dir = mkdtempSync(path.join(tmpdir(), 'dispatched-kubectl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A fake kubectl answering `version` as the Cloud SDK's do: `gitVersion` is its own, which a
 * dispatcher only says when it has no cluster to ask (otherwise it runs a kubectl.1.NN).
 */
function fakeKubectl(folder: string, name: string, gitVersion: string, serverMinor: string): string {
  const file = path.join(folder, name);
  const dispatcher = gitVersion.endsWith('-dispatcher');
  const own = JSON.stringify({ clientVersion: { gitVersion } });
  const client = JSON.stringify({ clientVersion: { gitVersion: dispatcher ? 'v1.33.1' : gitVersion } });
  const server = JSON.stringify({ clientVersion: { gitVersion: dispatcher ? 'v1.33.1' : gitVersion }, serverVersion: { minor: serverMinor } });
  writeFileSync(file, `#!/bin/sh\ncase "$*" in\n  *--client*/dev/null*) echo '${own}' ;;\n  *--client*) echo '${client}' ;;\n  *) echo '${server}' ;;\nesac\n`);
  chmodSync(file, 0o755);
  return file;
}

describe('dispatchedKubectl', () => {
  it("is the Cloud SDK dispatcher's kubectl.1.NN for the server's minor (as it would exec), asked once per cluster", async () => {
    const folder = mkdtempSync(path.join(dir, 'sdk-'));
    const dispatcher = fakeKubectl(folder, 'kubectl', 'v1.32.4-dispatcher', '28+');
    const versioned = fakeKubectl(folder, 'kubectl.1.28', 'v1.28.15', '28+');
    expect(await dispatchedKubectl(dispatcher, { KUBECONFIG: '/a' })).toBe(versioned);
    // and the same answer without asking again
    rmSync(versioned);
    expect(await dispatchedKubectl(dispatcher, { KUBECONFIG: '/a' })).toBe(versioned);
    // another cluster is asked: no kubectl.1.28 now, so the dispatcher itself
    expect(await dispatchedKubectl(dispatcher, { KUBECONFIG: '/b' })).toBe(dispatcher);
  });

  it('is any other kubectl itself, and a kubectl that cannot say its version too', async () => {
    const folder = mkdtempSync(path.join(dir, 'plain-'));
    const plain = fakeKubectl(folder, 'kubectl', 'v1.31.2', '33');
    fakeKubectl(folder, 'kubectl.1.33', 'v1.33.1', '33');
    expect(await dispatchedKubectl(plain, { KUBECONFIG: '/a' })).toBe(plain);
    const broken = path.join(folder, 'broken');
    writeFileSync(broken, '#!/bin/sh\nexit 1\n');
    chmodSync(broken, 0o755);
    expect(await dispatchedKubectl(broken, { KUBECONFIG: '/a' })).toBe(broken);
  });

});
