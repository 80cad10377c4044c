import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';

/** Credentials of the kubeconfig's user: a bearer token or a client certificate. */
export type KubeconfigUser =
  { token: string } | { certPem: string; keyPem: string };

/** What {@link buildKubeconfig} needs. */
export interface KubeconfigOptions {
  /** e.g. `https://127.0.0.1:6443` */
  server: string;
  /** CA that signed the server's certificate. */
  caPem: string;
  user: KubeconfigUser;
  /** Name of the context, cluster and user entries (default `kube-emulator`). */
  context?: string;
  /** Default namespace of the context. */
  namespace?: string;
  /** Name of the user entry (default: the context name). */
  userName?: string;
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/** A kubeconfig (`kind: Config`) object with one cluster, one user and one current context. */
export function buildKubeconfig(
  options: KubeconfigOptions,
): Record<string, unknown> {
  const context = options.context ?? 'kube-emulator';
  const userName = options.userName ?? context;
  const user =
    'token' in options.user
      ? { token: options.user.token }
      : {
          'client-certificate-data': b64(options.user.certPem),
          'client-key-data': b64(options.user.keyPem),
        };
  return {
    apiVersion: 'v1',
    kind: 'Config',
    preferences: {},
    clusters: [
      {
        name: context,
        cluster: {
          server: options.server,
          'certificate-authority-data': b64(options.caPem),
        },
      },
    ],
    users: [{ name: userName, user }],
    contexts: [
      {
        name: context,
        context: {
          cluster: context,
          user: userName,
          ...(options.namespace ? { namespace: options.namespace } : {}),
        },
      },
    ],
    'current-context': context,
  };
}

/** The kubeconfig as YAML text (what kubectl and `KubeConfig.loadFromString` read). */
export function kubeconfigYaml(options: KubeconfigOptions): string {
  return stringify(buildKubeconfig(options));
}

/** Writes the kubeconfig YAML to `file` with mode 0600 (it holds credentials), creating the folder. */
export async function writeKubeconfig(
  file: string,
  options: KubeconfigOptions,
): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, kubeconfigYaml(options), { mode: 0o600 });
  // mode only applies when the file is created: tighten an existing one as well
  await chmod(file, 0o600);
}
