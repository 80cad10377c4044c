import { serviceUnavailable } from '../server/StatusError';
import { POLICY_KEY, policyFromConfigMap } from './parsePolicy';
import type { Policy } from './types';

/** Reads the policy ConfigMap's data; resolves undefined when the ConfigMap does not exist. */
export type PolicyReader = () => Promise<Record<string, string> | undefined>;

/** Where `PolicySource` logs (the server's Logger fits). */
export interface PolicyLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

export interface PolicySourceOptions {
  read: PolicyReader;
  /** `namespace/name` of the ConfigMap, for messages. */
  configMap: string;
  /** Re-read period; changes apply within it (default 5 s). */
  refreshIntervalMs?: number;
  logger?: PolicyLogger;
}

/** The `message` of a Status body, given parsed or (as client-node's ApiException has it) as text. */
function statusMessage(body: unknown): string | undefined {
  let parsed = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body);
    } catch {
      return body || undefined;
    }
  }
  const message = (parsed as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}

/** Why the last read failed, as text (client-node's ApiException message carries all headers). */
function describe(err: unknown): string {
  const e = err as {
    code?: unknown;
    statusCode?: unknown;
    body?: unknown;
    message?: string;
  };
  const code = typeof e?.code === 'number' ? e.code : e?.statusCode;
  const text = statusMessage(e?.body) ?? e?.message ?? String(err);
  return typeof code === 'number' ? `HTTP ${code}: ${text}` : text;
}

/**
 * Keeps the platform team's policy current by re-reading its ConfigMap periodically. No
 * ConfigMap means no rules. When a read fails or the new text is invalid the last good policy
 * stays in force, the error is logged once (not once per re-read) and `problems()` reports it
 * until a read succeeds. Until the first good policy `current()` is undefined, so callers refuse
 * writes (see `require`) rather than admit them unchecked.
 */
export class PolicySource {
  private policy: Policy | undefined;
  /** The text the current policy was parsed from (`null`: no ConfigMap). */
  private text: string | null | undefined;
  private errors: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly listeners: Array<(p: Policy) => void> = [];

  constructor(private readonly options: PolicySourceOptions) {}

  /** The policy in force, or undefined while none has ever been loaded. */
  current(): Policy | undefined {
    return this.policy;
  }

  /** The policy in force; throws a 503 StatusError while none has ever been loaded. */
  require(): Policy {
    if (this.policy) return this.policy;
    const why = this.errors.length ? `: ${this.errors.join('; ')}` : '';
    throw serviceUnavailable(
      `policy ${this.options.configMap} is not loaded yet${why}`,
    );
  }

  /** Called after each change of the policy in force. */
  onChange(listener: (policy: Policy) => void): void {
    this.listeners.push(listener);
  }

  /** Reads once; resolves true when the policy in force is now the ConfigMap's. Never throws. */
  async refresh(): Promise<boolean> {
    let data: Record<string, string> | undefined;
    try {
      data = await this.options.read();
    } catch (err) {
      this.fail([
        `cannot read ConfigMap ${this.options.configMap}: ${describe(err)}`,
      ]);
      return false;
    }
    const text = data === undefined ? null : (data[POLICY_KEY] ?? undefined);
    // Unchanged text parses to the same policy (or the same errors, already reported).
    if (text !== undefined && text === this.text && this.policy) {
      this.recover();
      return true;
    }
    const result = policyFromConfigMap(data);
    if ('errors' in result) {
      this.fail(
        result.errors.map(e => `ConfigMap ${this.options.configMap}: ${e}`),
        ' (keeping the last good policy)',
      );
      return false;
    }
    this.policy = result.policy;
    this.text = text;
    this.recover();
    this.options.logger?.info('Policy loaded', {
      configMap: this.options.configMap,
      exists: data !== undefined,
      rules: result.policy.rules.map(r => r.name),
    });
    this.listeners.forEach(l => l(result.policy));
    return true;
  }

  /** First read, then a re-read every `refreshIntervalMs` until `stop()`. Resolves after the first. */
  async start(): Promise<boolean> {
    const ok = await this.refresh();
    this.stop();
    this.timer = setInterval(
      () => void this.refresh(),
      this.options.refreshIntervalMs ?? 5000,
    );
    this.timer.unref();
    return ok;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** For /readyz: empty while the ConfigMap's current content is in force. */
  problems(): string[] {
    if (this.errors.length) return [...this.errors];
    return this.policy
      ? []
      : [`policy ${this.options.configMap} not loaded yet`];
  }

  private fail(errors: string[], note = '') {
    if (errors.join('\n') !== this.errors.join('\n')) {
      this.options.logger?.warn(`Policy not loaded${this.policy ? note : ''}`, {
        configMap: this.options.configMap,
        errors,
      });
    }
    this.errors = errors;
  }

  private recover() {
    if (this.errors.length) {
      this.options.logger?.info('Policy problems resolved', {
        configMap: this.options.configMap,
      });
    }
    this.errors = [];
  }
}
