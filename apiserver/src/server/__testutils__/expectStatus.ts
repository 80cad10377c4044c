import assert from 'node:assert/strict';

/**
 * Asserts a metav1.Status body whose code equals the HTTP status and returns the body.
 * (node:assert, so test utilities need no test-only dependency.)
 */
export function expectStatus(res: { status: number; headers: any; json(): any }, code: number, reason: string, message?: string | RegExp) {
  const body = res.json();
  const context = JSON.stringify(body);
  assert.equal(res.status, code, `HTTP status ${res.status}, body ${context}`);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  assert.deepEqual(
    { kind: body.kind, apiVersion: body.apiVersion, metadata: body.metadata, status: body.status, code: body.code, reason: body.reason },
    { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code, reason },
  );
  if (typeof message === 'string') assert.equal(body.message, message);
  else if (message) assert.match(body.message, message);
  return body;
}

/** The fields named in `details.causes` of a Status body. */
export const causeFields = (body: any): string[] => (body.details?.causes ?? []).map((c: any) => c.field);
