const BY_NAME: Record<string, number> = {
  NotModifiedError: 304,
  InputError: 400,
  AuthenticationError: 401,
  NotAllowedError: 403,
  NotFoundError: 404,
  ConflictError: 409,
  NotImplementedError: 501,
  ServiceUnavailableError: 503,
};

/**
 * The HTTP status Backstage's error middleware answers for an error (as `getStatusCode` in
 * @backstage/backend-defaults does: a numeric `statusCode`/`status`, else the well-known
 * @backstage/errors names, else 500), so the history records the answer the user got.
 */
export function httpStatusOf(error: unknown): number {
  const e = error as
    { statusCode?: unknown; status?: unknown; name?: unknown } | undefined;
  for (const field of [e?.statusCode, e?.status]) {
    if (
      typeof field === 'number' &&
      Number.isInteger(field) &&
      field >= 100 &&
      field <= 599
    )
      return field;
  }
  return BY_NAME[String(e?.name)] ?? 500;
}
