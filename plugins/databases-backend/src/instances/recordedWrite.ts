import type { AuditorService } from '@backstage/backend-plugin-api';
import type { Request } from 'express';
import type { RequestRecord } from '@internal/plugin-databases-common';
import { toBackstageError } from '../service/toBackstageError';
import { httpStatusOf } from '../service/httpStatusOf';

/** A request to keep in an instance's history. */
export type RequestEntry = Omit<RequestRecord, 'id' | 'at'>;

/** Where a write is recorded. */
export interface WriteRecorders {
  auditor?: AuditorService;
  history?: { record(entry: RequestEntry): Promise<void> };
}

/** One write to record. */
export interface RecordedWrite {
  action: RequestRecord['action'];
  key: { cluster: string; namespace: string; name: string };
  actor: string;
  request: unknown;
  /** A preview: neither recorded nor audited. */
  dryRun?: boolean;
  /** The status recorded when it succeeds (the route's answer). */
  answered?: number;
  /** The HTTP request it came in, for the audit event (the auditor names the caller from it). */
  httpRequest: Request;
}

/**
 * Runs a write, records it in the instance's request history and audits it; every error comes
 * out a Backstage error, recorded with the status it is answered with, not the cluster's behind it.
 */
export async function recordedWrite<T>(rec: WriteRecorders, w: RecordedWrite, fn: () => Promise<T>): Promise<T> {
  if (w.dryRun) {
    try {
      return await fn();
    } catch (e) {
      throw toBackstageError(e);
    }
  }
  const { action, key, actor, request } = w;
  const audit = await rec.auditor?.createEvent({
    eventId: `instance-${action}`,
    // deleting a backup can leave an instance without a way back, deleting a schedule without new
    // ones: as grave as deleting it
    severityLevel: action === 'delete' || action === 'delete-backup' || action === 'delete-schedule' ? 'high' : 'medium',
    request: w.httpRequest,
    meta: { ...key, request: request as any },
  });
  try {
    const result = await fn();
    await rec.history?.record({ ...key, action, actor, request, outcome: { status: w.answered ?? (action === 'create' || action === 'backup' || action === 'schedule' ? 201 : 200) } });
    await audit?.success();
    return result;
  } catch (e) {
    const error = toBackstageError(e);
    await rec.history?.record({ ...key, action, actor, request, outcome: { status: httpStatusOf(error), message: error.message } });
    await audit?.fail({ error });
    throw error;
  }
}
