import { eventually } from '../support/eventually';
import type { Kubectl } from './Kubectl';

const GROUP = 'dbaas.platform.dev';
/** The bound: a rotated password reaches the binding Secret within 5 s. */
export const ROTATION_MS = 5000;

/** A Secret's data, base64-decoded. */
export const decode = (data: Record<string, string> = {}) =>
  Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));

/** What the binding case saw, for the conformance case to check. */
export interface BindingSeen {
  bindingName: string;
  /** The binding Secret's entries, decoded, and its type and owners. */
  entries: Record<string, string>;
  type: string;
  ownerUids: string[];
  /** The connection subresource's answer, and the operator object's uid. */
  connection: Record<string, any>;
  operatorUid: string;
  /** The binding Secret's password after the operator's Secret was rotated, and how long it took. */
  rotated: { password: string; uri: string; ms: number };
}

/**
 * A Service Binding on a cluster where no operator runs: a Redis, whose password Secret the
 * apiserver itself creates (the OT operator makes none), so its binding Secret can be made at
 * once. The suite then rotates that password as an operator would, and reads the binding Secret
 * follow. The instance is deleted afterwards; its binding Secret goes with the Redis object where
 * the cluster runs Kubernetes' garbage collector (kube-controller-manager).
 */
export async function runBinding(kubectl: Kubectl, ns: string, name = 'conf-binding'): Promise<BindingSeen> {
  try {
    await kubectl.ok(
      ['create', '-f', '-'],
      JSON.stringify({ apiVersion: `${GROUP}/v1alpha1`, kind: 'DatabaseInstance', metadata: { name, namespace: ns }, spec: { engine: 'redis' } }),
    );
    const bindingName = await eventually(
      async () => (await kubectl.json(['get', 'dbi', name, '-n', ns])).status?.binding?.name as string | undefined,
      `${name} has status.binding`,
    );
    const secret = await kubectl.json(['get', 'secret', bindingName, '-n', ns]);
    const connection = JSON.parse(await kubectl.ok(['get', '--raw', `/apis/${GROUP}/v1alpha1/namespaces/${ns}/databaseinstances/${name}/connection`]));
    const source = (await kubectl.json(['get', 'dbi', name, '-n', ns])).status.source;
    const operatorObject = await kubectl.json(['get', `${source.kind.toLowerCase()}.${source.apiVersion.split('/')[0]}`, source.name, '-n', ns]);

    // the operator's password Secret changes (a rotation)
    const operatorSecret = await kubectl.json(['get', 'secret', connection.secretRef.name, '-n', ns]);
    const key = Object.entries(decode(operatorSecret.data)).find(([, v]) => v === connection.password)?.[0];
    if (!key) throw new Error(`no entry of Secret ${connection.secretRef.name} holds the connection's password`);
    const password = `rotated-${Date.now().toString(36)}`;
    await kubectl.ok(['patch', 'secret', connection.secretRef.name, '-n', ns, '--type=merge', '-p', JSON.stringify({ data: { [key]: Buffer.from(password).toString('base64') } })]);
    const started = Date.now();
    const rotated = await eventually(
      async () => {
        const now = decode((await kubectl.json(['get', 'secret', bindingName, '-n', ns])).data);
        return now.password === password ? now : undefined;
      },
      `${bindingName} has the rotated password`,
      ROTATION_MS,
    );
    return {
      bindingName,
      entries: decode(secret.data),
      type: secret.type,
      ownerUids: (secret.metadata.ownerReferences ?? []).map((r: any) => r.uid),
      connection,
      operatorUid: operatorObject.metadata.uid,
      rotated: { password: rotated.password, uri: rotated.uri, ms: Date.now() - started },
    };
  } finally {
    await kubectl.run(['delete', 'dbi', name, '-n', ns, '--ignore-not-found', '--timeout=30s']);
  }
}
