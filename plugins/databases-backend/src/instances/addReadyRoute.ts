import type { Request, Response } from 'express';
import type Router from 'express-promise-router';
import { z } from 'zod/v3';
import type { HttpAuthService } from '@backstage/backend-plugin-api';
import { ServiceUnavailableError } from '@backstage/errors';
import type { DatabaseInstance, ReadyFrame } from '@internal/plugin-databases-common';
import { instanceParams, parse } from '../requestSchemas';
import type { InstanceRequests } from './InstanceRequests';

/** A template's wait is minutes; a day bounds what a client may ask a request to stay open. */
const MAX_TIMEOUT_SECONDS = 86_400;
const DEFAULT_TIMEOUT_SECONDS = 600;

const readyQuery = z
  .object({ timeoutSeconds: z.coerce.number().int().min(1).max(MAX_TIMEOUT_SECONDS).optional() })
  .strict();

/**
 * `GET …/instances/:name/ready?timeoutSeconds=N`: waits, as the user, until the instance is
 * Ready (what the databases node library's `waitUntilReady`, and so the Scaffolder's
 * `databases:instance:wait`, calls). The answer is newline-delimited JSON (ReadyFrame): the
 * instance first and on each change of its phase, reason or message, then `ready` or `error`.
 * Until the first line is sent, a refusal (no read access, no such cluster or instance) is an
 * ordinary error answer. Changes come from the backend's shared watch, not from polling; a
 * client that leaves ends the wait.
 */
export function addReadyRoute(
  router: ReturnType<typeof Router>,
  deps: {
    httpAuth: HttpAuthService;
    instances: InstanceRequests;
    /** Long-lived answers open on this backend (the live lists' too), and how many may be. */
    streams: { open: number };
    maxStreams: number;
  },
) {
  router.get('/clusters/:cluster/namespaces/:namespace/instances/:name/ready', async (req: Request, res: Response) => {
    const p = parse(instanceParams, req.params, 'path');
    const { timeoutSeconds } = parse(readyQuery, req.query, 'query');
    const credentials = await deps.httpAuth.credentials(req, { allow: ['user'] });
    // a wait holds a watch and a connection for minutes, as a live list does: the same bound
    if (deps.streams.open >= deps.maxStreams) {
      throw new ServiceUnavailableError(`${deps.maxStreams} event streams are open on this backend; wait for the instance by reading it again later`);
    }
    deps.streams.open += 1;
    let holding = true;
    const free = () => {
      if (holding) deps.streams.open -= 1;
      holding = false;
    };
    res.on('finish', free);
    res.on('close', free);
    const left = new AbortController();
    res.on('close', () => left.abort());
    const send = (frame: ReadyFrame) => {
      if (!res.headersSent) {
        res.status(200).set({ 'Content-Type': 'application/x-ndjson', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' });
        res.flushHeaders();
      }
      res.write(`${JSON.stringify(frame)}\n`);
    };
    let ready: DatabaseInstance;
    try {
      ready = await deps.instances.waitUntilReady(credentials, p, {
        timeoutMs: (timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
        signal: left.signal,
        onProgress: instance => send({ type: 'progress', instance }),
      });
    } catch (e) {
      // before the first line the error handler answers with the error's own status
      if (!res.headersSent) throw e;
      const error = e as Error;
      if (!left.signal.aborted) send({ type: 'error', error: { name: error.name, message: error.message } });
      res.end();
      return;
    }
    send({ type: 'ready', instance: ready });
    res.end();
  });
}
