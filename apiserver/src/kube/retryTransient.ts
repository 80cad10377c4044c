import { KubeHttpError } from './kubeRequest';

/** Back-off of the delegated authn/authz webhooks (`DefaultAuthWebhookRetryBackoff`). */
export interface RetryBackoff {
  /** Total attempts (k8s: 5). */
  steps: number;
  /** Delay before the second attempt (k8s: 500 ms). */
  initialDelayMs: number;
  /** Growth of the delay per attempt (k8s: 1.5). */
  factor: number;
}

export const DEFAULT_WEBHOOK_BACKOFF: RetryBackoff = {
  steps: 5,
  initialDelayMs: 500,
  factor: 1.5,
};

/** Worth retrying: no HTTP answer at all, 429, or 5xx. A 4xx other than 429 will not change. */
export function isTransientKubeError(err: unknown): boolean {
  if (err instanceof KubeHttpError) {
    return err.statusCode === 429 || err.statusCode >= 500;
  }
  return true;
}

/** Runs `fn` until it succeeds, a non-transient error occurs, or the steps are used up. */
export async function retryTransient<T>(
  fn: () => Promise<T>,
  backoff: RetryBackoff,
): Promise<T> {
  let delay = backoff.initialDelayMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= backoff.steps || !isTransientKubeError(err)) {
        throw err;
      }
      const wait = delay;
      await new Promise(r => setTimeout(r, wait));
      delay *= backoff.factor;
    }
  }
}
