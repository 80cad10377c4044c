import type { IncomingMessage, ServerResponse } from 'node:http';
import { StoreError } from '../store/types';

/** Writes a JSON body with the given status code. */
export function writeJson(
  res: ServerResponse,
  code: number,
  body: unknown,
): void {
  const text = JSON.stringify(body);
  res.writeHead(code, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** A `metav1.Status` failure body for an error (anything but a StoreError is a 500). */
export function statusBody(err: unknown): {
  code: number;
  body: Record<string, unknown>;
} {
  const e =
    err instanceof StoreError
      ? err
      : new StoreError(
          500,
          'InternalError',
          `Internal error occurred: ${String((err as Error)?.message ?? err)}`,
        );
  return {
    code: e.code,
    body: {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: e.message,
      reason: e.reason,
      ...(e.details ? { details: e.details } : {}),
      code: e.code,
    },
  };
}

/** Writes an error as a `metav1.Status`. */
export function writeStatusError(res: ServerResponse, err: unknown): void {
  const { code, body } = statusBody(err);
  writeJson(res, code, body);
}

/** The request body: `body` when the pipeline already read it, else read from the stream. */
export async function readBody(
  req: IncomingMessage,
  body: Buffer | undefined,
  limit = 3 * 1024 * 1024,
): Promise<Buffer> {
  if (body !== undefined) return body;
  if (req.readableEnded) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit)
      throw new StoreError(
        413,
        'RequestEntityTooLarge',
        'Request entity too large: limit is 3145728',
      );
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Parses a JSON object body; a 400 BadRequest Status for anything else. */
export function parseJsonObject(
  raw: Buffer,
  kind: string,
): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch (e) {
    throw new StoreError(
      400,
      'BadRequest',
      `error decoding ${kind}: ${(e as Error).message}`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new StoreError(
      400,
      'BadRequest',
      `error decoding ${kind}: body must be a JSON object`,
    );
  }
  return parsed as Record<string, unknown>;
}
