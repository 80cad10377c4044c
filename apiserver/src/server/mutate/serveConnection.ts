import { DATABASE_INSTANCE_PLURAL } from '@internal/plugin-databases-common';
import { SECRETS } from '../../kube/KubeWriter';
import { toConnection } from '../../writes/toConnection';
import { negotiateOutput } from '../negotiate';
import type { HandlerContext } from '../readHandlers';
import { methodNotSupported, serviceUnavailable } from '../StatusError';
import { instanceAndSource } from './instanceAndSource';
import { sendObject } from './respondInstance';
import { toWriteError } from './toWriteError';
import type { WriteDeps } from './WriteDeps';

/** How long clients are told to wait for a credentials Secret the operator has not made yet. */
const SECRET_RETRY_SECONDS = 2;

/**
 * GET .../databaseinstances/{name}/connection: host, port, user, password and URI of an
 * instance, read from the operator's Secret. The Secret is fetched per request with the
 * apiserver's credentials — never cached, never logged — and this subresource is its own RBAC
 * permission (`databaseinstances/connection`), so reading credentials is a separate grant.
 * While the operator has not created the Secret yet the answer is 503 with Retry-After:
 * the instance exists, its credentials do not (yet).
 */
export async function serveConnection(ctx: HandlerContext, deps: WriteDeps): Promise<void> {
  // a read: an Accept nothing satisfies is a 406 before any Secret is fetched
  negotiateOutput(ctx.req.headers.accept, 'object');
  const { namespace, name, instance, source } = instanceAndSource(ctx, deps);
  const write = source.adapter.write;
  if (!write) throw methodNotSupported(`${DATABASE_INSTANCE_PLURAL}/connection`, 'get');
  const secretName = write.connectionSecretName(source.object);
  let secret;
  if (secretName) {
    try {
      secret = await deps.writer.get(SECRETS, namespace, secretName);
    } catch (err) {
      throw toWriteError(err, { verb: 'get', name, namespace, type: SECRETS });
    }
    if (!secret) {
      throw serviceUnavailable(
        `the credentials of ${DATABASE_INSTANCE_PLURAL} "${name}" are not available yet: Secret "${secretName}" does not exist; ${source.adapter.operator} creates it while provisioning`,
        SECRET_RETRY_SECONDS,
      );
    }
  }
  const details = write.connection(instance, source.object, secret);
  sendObject(ctx.res, ctx.req.headers.accept, 200, toConnection(instance, details));
}
