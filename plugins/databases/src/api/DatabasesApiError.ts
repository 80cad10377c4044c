import type {
  DatabasesErrorBody,
  DatabasesFieldError,
} from '@internal/plugin-databases-common';

/**
 * An error answer from the databases backend, with what the UI needs to explain it: the HTTP
 * status, the Kubernetes reason when there is one, and field errors.
 *
 * @public
 */
export class DatabasesApiError extends Error {
  readonly statusCode: number;
  readonly reason?: string;
  readonly causes: DatabasesFieldError[];

  constructor(options: {
    message: string;
    statusCode: number;
    name?: string;
    reason?: string;
    causes?: DatabasesFieldError[];
  }) {
    super(options.message);
    this.name = options.name ?? 'DatabasesApiError';
    this.statusCode = options.statusCode;
    this.reason = options.reason;
    this.causes = options.causes ?? [];
  }

  /** Builds the error from a failed response, whatever its body (JSON error, text or nothing). */
  static async fromResponse(response: Response): Promise<DatabasesApiError> {
    const text = await response.text().catch(() => '');
    let body: Partial<DatabasesErrorBody> | undefined;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const error = body?.error;
    return new DatabasesApiError({
      statusCode: response.status,
      name: error?.name,
      message:
        error?.message ||
        text.slice(0, 500) ||
        `Request failed with ${response.status} ${response.statusText}`.trim(),
      reason: error?.reason,
      causes: Array.isArray(error?.causes) ? error!.causes : [],
    });
  }
}
