import type { DiagnosisFinding } from '@internal/plugin-databases-common';
import type { KubeObject, ResourceType } from '../../adapters/types';
import { diagnose } from '../../diagnosis/diagnose';
import { negotiateOutput } from '../negotiate';
import type { HandlerContext } from '../readHandlers';
import { instanceAndSource } from './instanceAndSource';
import { sendObject } from './respondInstance';
import type { WriteDeps } from './WriteDeps';

export const PODS: ResourceType = {
  group: '',
  version: 'v1',
  plural: 'pods',
  kind: 'Pod',
};
export const CLAIMS: ResourceType = {
  group: '',
  version: 'v1',
  plural: 'persistentvolumeclaims',
  kind: 'PersistentVolumeClaim',
};
/** Members of one instance are a handful; this bounds a selector that matches more by mistake. */
const LIST_LIMIT = 200;

/**
 * GET .../databaseinstances/{name}/diagnosis: what is wrong with an instance, from its
 * operator's status (watched) and its pods and volume claims (read per request with the
 * apiserver's credentials, by the operator's documented labels; nothing about them is kept).
 * Its own RBAC permission (`databaseinstances/diagnosis`). When the pods cannot be read (the
 * apiserver's role lacks them, kube-apiserver is slow), the answer says so as a finding and
 * still carries what the status tells.
 */
export async function serveDiagnosis(
  ctx: HandlerContext,
  deps: WriteDeps,
): Promise<void> {
  negotiateOutput(ctx.req.headers.accept, 'object');
  const { namespace, name, instance, source } = instanceAndSource(ctx, deps);
  const selectors =
    source.adapter.memberSelectors?.(source.object, source.kind) ?? [];
  const pods: KubeObject[] = [];
  const claims: KubeObject[] = [];
  const unreadable: DiagnosisFinding[] = [];
  await Promise.all(
    selectors.flatMap(labels =>
      [
        [PODS, pods],
        [CLAIMS, claims],
      ].map(async ([type, into]) => {
        const t = type as ResourceType;
        try {
          (into as KubeObject[]).push(
            ...(await deps.writer.list(t, namespace, labels, LIST_LIMIT)),
          );
        } catch (err) {
          const code = (err as { statusCode?: number }).statusCode;
          if (unreadable.some(f => f.objects[0]?.kind === t.kind)) return;
          unreadable.push({
            reason: 'MembersNotReadable',
            severity: 'Info',
            message: `The apiserver could not list the ${t.plural} of ${name}${
              code === 403
                ? ': its role does not allow it'
                : `: ${(err as Error).message}`
            }; findings about them are missing`,
            hint:
              code === 403
                ? `Grant the dbaas-apiserver service account list on ${t.plural} (the Helm chart does).`
                : 'Ask again: kube-apiserver did not answer in time.',
            objects: [{ apiVersion: 'v1', kind: t.kind, name: '', namespace }],
          });
          deps.logger.warn('diagnosis could not list members', {
            kind: t.kind,
            namespace,
            name,
            code,
          });
        }
      }),
    ),
  );
  const byName = (a: KubeObject, b: KubeObject) =>
    (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '');
  const diagnosis = diagnose(
    source.adapter,
    source.object,
    instance,
    unique(pods).sort(byName),
    unique(claims).sort(byName),
  );
  diagnosis.findings.push(...unreadable);
  sendObject(ctx.res, ctx.req.headers.accept, 200, diagnosis);
}

/** Two selectors can match the same object (a pod with both sets' labels). */
function unique(objects: KubeObject[]): KubeObject[] {
  return [
    ...new Map(
      objects.map(o => [o.metadata?.uid ?? o.metadata?.name, o]),
    ).values(),
  ];
}
