/**
 * Where the conformance suite runs: the in-process emulator (the normal test run), a real
 * cluster through `$KUBECONFIG` (`yarn test:cluster`), or nowhere, with the reason.
 */
export type TargetChoice =
  | { kind: 'emulator' }
  | { kind: 'kubeconfig'; kubeconfig: string }
  | { kind: 'skip'; reason: string };

/** The environment variable `yarn test:cluster` sets to point the suite at `$KUBECONFIG`. */
export const TARGET_ENV = 'DBAAS_CONFORMANCE_TARGET';

/**
 * Decides the target from the environment. Pure, so that a wrong setting is a clear skip or
 * error here and never a suite that silently runs against the wrong cluster.
 */
export function chooseTarget(
  env: Record<string, string | undefined>,
): TargetChoice {
  const wanted = (env[TARGET_ENV] ?? '').trim();
  if (wanted === '' || wanted === 'emulator') return { kind: 'emulator' };
  if (wanted !== 'kubeconfig') {
    throw new Error(
      `${TARGET_ENV}=${wanted} is not a target: use "emulator" (default) or "kubeconfig"`,
    );
  }
  const kubeconfig = (env.KUBECONFIG ?? '').trim();
  if (kubeconfig === '') {
    return {
      kind: 'skip',
      reason: `${TARGET_ENV}=kubeconfig but KUBECONFIG is not set: point KUBECONFIG at a cluster with the apiserver installed (docs/conformance.md)`,
    };
  }
  return { kind: 'kubeconfig', kubeconfig };
}
