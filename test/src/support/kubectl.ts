import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { devNull } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** The `kubectl` on PATH, resolved to its real file (the Cloud SDK keeps kubectl.1.NN beside it). */
function kubectlOnPath(): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'kubectl');
    if (existsSync(candidate)) return realpathSync(candidate);
  }
  throw new Error('kubectl is not on PATH (the end-to-end tests need the real binary)');
}

const dispatched = new Map<string, Promise<string>>();

/**
 * The binary a run of `file` against `env`'s cluster executes. The Cloud SDK's `kubectl` is a
 * dispatcher: every run asks the server its version, then execs the `kubectl.1.NN` beside it for
 * that minor (~140 ms and a TLS handshake more per run, a few minutes over the suites). The tests
 * run that same binary directly, asked once per binary and cluster; any other kubectl is itself.
 */
export function dispatchedKubectl(file: string, env: Record<string, string | undefined>): Promise<string> {
  const key = `${file}\0${env.KUBECONFIG}`;
  let found = dispatched.get(key);
  if (!found) {
    found = (async () => {
      const ask = async (args: string[]) => JSON.parse((await execFileAsync(file, [...args, '-o', 'json'], { env, timeout: 60_000 })).stdout);
      try {
        // with a cluster to ask, the dispatcher runs even `version --client` as a kubectl.1.NN
        const client = await ask(['version', '--client', '--kubeconfig', devNull]);
        if (!/-dispatcher$/.test(client.clientVersion?.gitVersion ?? '')) return file;
        const minor = /^\d+/.exec((await ask(['version'])).serverVersion?.minor ?? '')?.[0];
        const versioned = minor && path.join(path.dirname(file), `kubectl.1.${minor}`);
        return versioned && existsSync(versioned) ? versioned : file;
      } catch {
        // whatever it is, running it as it is stays right
        return file;
      }
    })();
    dispatched.set(key, found);
  }
  return found;
}

/**
 * The kubectl binaries the tests run: the default one, and `kubectl.1.27` / `kubectl.1.33` that
 * ship beside it. A missing versioned binary is an error, not a skip: CI has them.
 */
export function kubectlBinaries(versions: string[] = ['1.27', '1.33']): Array<{ name: string; file: string }> {
  const main = kubectlOnPath();
  return [
    { name: 'kubectl', file: main },
    ...versions.map(v => {
      const file = path.join(path.dirname(main), `kubectl.${v}`);
      if (!existsSync(file)) throw new Error(`${file} not found`);
      return { name: `kubectl.${v}`, file };
    }),
  ];
}

export interface KubectlResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** Runs kubectl against a kubeconfig, with its own HOME so discovery caches do not leak between runs. */
export async function runKubectl(
  file: string,
  kubeconfig: string,
  home: string,
  args: string[],
  input?: string,
): Promise<KubectlResult> {
  const env = { ...process.env, KUBECONFIG: kubeconfig, HOME: home, KUBECACHEDIR: path.join(home, 'cache') };
  const binary = await dispatchedKubectl(file, env);
  if (input !== undefined) {
    return new Promise(resolve => {
      const child = spawn(binary, args, { env });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', d => (stdout += d));
      child.stderr.on('data', d => (stderr += d));
      child.on('close', code => resolve({ stdout, stderr, code: code ?? 1 }));
      child.stdin.end(input);
    });
  }
  try {
    const { stdout, stderr } = await execFileAsync(binary, args, { env, timeout: 60_000 });
    return { stdout, stderr, code: 0 };
  } catch (e: any) {
    return { stdout: e.stdout ?? '', stderr: e.stderr ?? String(e), code: typeof e.code === 'number' ? e.code : 1 };
  }
}

/**
 * `kubectl get -w` of one named object that misses no change. kubectl drops the first event of a
 * watch of a single named object (get.go: "drop the initial watch event in the single resource
 * case"): that watch starts at resourceVersion 0, whose first event is the object as it is then,
 * so a change made between kubectl's GET and its watch is never printed, on any cluster. A watch
 * of the collection selecting the name prints the list and watches from the list's
 * resourceVersion, so every state after the first line is printed.
 */
export function watchOneArgs(resource: string, name: string, namespace: string): string[] {
  return ['get', resource, '-n', namespace, '--field-selector', `metadata.name=${name}`, '-w'];
}

/**
 * Starts a long-running kubectl (e.g. `get -w`) and collects its output lines. With `announce`,
 * kubectl logs its requests (`-v=6`, on stderr) and `watching()` resolves once its watch request
 * has been answered: a change made after that is seen by the watch, one made before may come
 * before its list (kubectl prints nothing for an empty list, so nothing else tells).
 */
export function spawnKubectl(file: string, kubeconfig: string, home: string, args: string[], options: { announce?: boolean } = {}) {
  const child: ChildProcess = spawn(file, options.announce ? [...args, '-v=6'] : args, {
    env: { ...process.env, KUBECONFIG: kubeconfig, HOME: home, KUBECACHEDIR: path.join(home, 'cache') },
  });
  const lines: string[] = [];
  let buf = '';
  child.stdout!.on('data', d => {
    buf += d;
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      lines.push(buf.slice(0, i));
      buf = buf.slice(i + 1);
    }
  });
  let stderr = '';
  child.stderr!.on('data', d => (stderr += d));
  // kubectl get -w ends quietly (exit 0, nothing said) when the server ends its watch with an
  // ERROR event (get.go ignores what watchtools.UntilWithoutRetry returns): a line that can no
  // longer come is a failure now, with the exit in its message, not a minute later
  let exit: string | undefined;
  child.on('close', (code, signal) => (exit = `kubectl exited (${signal ?? `code ${code}`})`));
  // kubectl 1.32+: "Response" verb="GET" url="…watch=true…" status="200 OK"; older: GET https://…watch=true… 200 OK
  const answeredWatch = () => stderr.split('\n').some(l => /watch=true/.test(l) && /200 OK/.test(l));
  return {
    lines,
    stderr: () => stderr,
    async watching(timeoutMs = 20_000): Promise<void> {
      if (!options.announce) throw new Error('watching() needs spawnKubectl(…, { announce: true })');
      const deadline = Date.now() + timeoutMs;
      while (!answeredWatch()) {
        if (exit !== undefined || Date.now() > deadline) throw new Error(`kubectl's watch not answered ${exit ? `and ${exit}` : `after ${timeoutMs} ms`}; stderr:\n${stderr}`);
        await new Promise(r => setTimeout(r, 20));
      }
    },
    async waitForLine(pred: (line: string) => boolean, timeoutMs = 20_000): Promise<string> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = lines.find(pred);
        if (hit) return hit;
        if (exit !== undefined || Date.now() > deadline) {
          throw new Error(`no matching line ${exit ? `and ${exit}` : `after ${timeoutMs} ms`}; got:\n${lines.join('\n')}\nstderr:\n${stderr}`);
        }
        await new Promise(r => setTimeout(r, 100));
      }
    },
    stop() {
      child.kill('SIGTERM');
    },
  };
}

/** Splits kubectl's table output into rows of cells keyed by header. */
export function parseTable(stdout: string): Array<Record<string, string>> {
  const lines = stdout.split('\n').filter(l => l.trim() !== '');
  if (lines.length === 0) return [];
  const header = lines[0];
  const starts: number[] = [];
  for (const m of header.matchAll(/\S+/g)) starts.push(m.index!);
  const names = starts.map((s, i) => header.slice(s, starts[i + 1]).trim());
  return lines.slice(1).map(line => {
    const row: Record<string, string> = {};
    names.forEach((n, i) => (row[n] = line.slice(starts[i], starts[i + 1]).trim()));
    return row;
  });
}
