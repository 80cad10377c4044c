import { execFile, spawn } from 'node:child_process';
import { dispatchedKubectl } from '../support/kubectl';

/** What one kubectl run printed and how it ended. */
export interface KubectlRun {
  stdout: string;
  stderr: string;
  code: number;
}

/** A long-running kubectl (`get -w`) whose output lines are collected. */
export interface KubectlWatch {
  lines: string[];
  waitForLine(
    match: (line: string) => boolean,
    timeoutMs?: number,
  ): Promise<string>;
  stop(): void;
}

/**
 * kubectl bound to one kubeconfig. Only KUBECONFIG and the discovery cache are set: HOME stays
 * the caller's, because a real cluster's kubeconfig may run credential plugins that read it.
 */
export class Kubectl {
  constructor(
    private readonly file: string,
    private readonly env: Record<string, string>,
    private readonly extraArgs: string[] = [],
  ) {}

  /** The same kubectl acting as another user through impersonation (`--as`). */
  as(user: string): Kubectl {
    return new Kubectl(this.file, this.env, [
      ...this.extraArgs,
      `--as=${user}`,
    ]);
  }

  async run(args: string[], input?: string, timeoutMs = 60_000): Promise<KubectlRun> {
    const env = { ...process.env, ...this.env };
    const file = await dispatchedKubectl(this.file, env);
    return new Promise(resolve => {
      const child = execFile(
        file,
        [...this.extraArgs, ...args],
        {
          env,
          timeout: timeoutMs,
          maxBuffer: 64 * 1024 * 1024,
        },
        (error, stdout, stderr) => {
          let code = 0;
          if (error) code = typeof error.code === 'number' ? error.code : 1;
          resolve({ stdout: String(stdout), stderr: String(stderr), code });
        },
      );
      child.stdin?.end(input ?? '');
    });
  }

  /** Runs and fails with kubectl's own words when it exits non-zero. */
  async ok(args: string[], input?: string): Promise<string> {
    const r = await this.run(args, input);
    if (r.code !== 0)
      throw new Error(
        `kubectl ${args.join(' ')} exited ${r.code}: ${r.stderr}`,
      );
    return r.stdout;
  }

  async json(args: string[]): Promise<any> {
    return JSON.parse(await this.ok([...args, '-o', 'json']));
  }

  /** `kubectl create -f -` of one object. */
  create(object: Record<string, unknown>): Promise<string> {
    return this.ok(['create', '-f', '-'], JSON.stringify(object));
  }

  /** Merges `status` into the status subresource of `resource` `name`, as its controller would. */
  patchStatus(resource: string, name: string, namespace: string, status: Record<string, unknown>): Promise<string> {
    return this.ok(['patch', resource, name, '-n', namespace, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status })]);
  }

  /** The namespace's `default` ServiceAccount, which a pod needs and no controller-manager may have made. */
  async defaultServiceAccount(namespace: string): Promise<void> {
    const sa = await this.run(['create', 'serviceaccount', 'default', '-n', namespace]);
    if (sa.code !== 0 && !/AlreadyExists|already exists/.test(sa.stderr)) throw new Error(`create serviceaccount default: ${sa.stderr}`);
  }

  watch(args: string[]): KubectlWatch {
    const child = spawn(this.file, [...this.extraArgs, ...args], {
      env: { ...process.env, ...this.env },
    });
    const lines: string[] = [];
    let buffered = '';
    let stderr = '';
    child.stdout.on('data', d => {
      buffered += d;
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      lines.push(...parts);
    });
    child.stderr.on('data', d => (stderr += d));
    return {
      lines,
      async waitForLine(match, timeoutMs = 30_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const hit = lines.find(match);
          if (hit !== undefined) return hit;
          if (Date.now() > deadline || child.exitCode !== null) {
            throw new Error(
              `no matching line from kubectl ${args.join(' ')}; got:\n${lines.join('\n')}\nstderr:\n${stderr}`,
            );
          }
          await new Promise(r => setTimeout(r, 100));
        }
      },
      stop() {
        child.kill('SIGTERM');
      },
    };
  }
}
