import type { ProbeAnswer, ProbeRequest } from './hostileApiClient';

/** A Kubernetes `metav1.Status` as the tests read it. */
export interface StatusBody {
  kind: string;
  apiVersion: string;
  status: string;
  message: string;
  reason: string;
  code: number;
  details?: { causes?: Array<{ field?: string; message?: string; reason?: string }> };
}

const show = (probe: ProbeRequest, answer: ProbeAnswer) => {
  const body = probe.body === undefined ? '' : String(probe.body).slice(0, 300);
  return `${probe.method} ${probe.path.slice(0, 300)}\nrequest headers: ${JSON.stringify(probe.headers ?? {}).slice(0, 500)}\nrequest body: ${JSON.stringify(body)}\n→ ${answer.status} ${JSON.stringify(answer.headers['content-type'] ?? '')} ${answer.body.slice(0, 500)}`;
};

/** Throws (with the request and answer) unless `answer` is a 4xx Kubernetes Status whose code is the HTTP status. */
export function expectStatusFailure(probe: ProbeRequest, answer: ProbeAnswer, allowed?: number[]): StatusBody {
  if (answer.status < 400 || answer.status >= 500 || (allowed && !allowed.includes(answer.status))) {
    throw new Error(`expected ${allowed ? allowed.join('/') : 'a 4xx'} Status:\n${show(probe, answer)}`);
  }
  if (probe.method === 'HEAD') {
    // a HEAD answer has the headers of the GET and no body to check
    if (!String(answer.headers['content-type'] ?? '').startsWith('application/json') || answer.body !== '') {
      throw new Error(`a HEAD refusal without the Status headers:\n${show(probe, answer)}`);
    }
    return { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: '', reason: '', code: answer.status };
  }
  let status: StatusBody;
  try {
    status = JSON.parse(answer.body);
  } catch {
    throw new Error(`a ${answer.status} that is not JSON:\n${show(probe, answer)}`);
  }
  if (
    !String(answer.headers['content-type'] ?? '').startsWith('application/json') ||
    status.kind !== 'Status' ||
    status.apiVersion !== 'v1' ||
    status.status !== 'Failure' ||
    status.code !== answer.status ||
    typeof status.message !== 'string' ||
    !status.message ||
    typeof status.reason !== 'string' ||
    !status.reason
  ) {
    throw new Error(`not a Kubernetes Status with code ${answer.status}:\n${show(probe, answer)}`);
  }
  return status;
}

/**
 * The oracle of every hostile case: never a 5xx; a refusal is a well-formed 4xx Status; a
 * success (2xx, 304) carries a body of the negotiated format (a cut watch stream excepted).
 * Returns the Status of a refusal, undefined for a success.
 */
export function expectKubeAnswer(probe: ProbeRequest, answer: ProbeAnswer): StatusBody | undefined {
  if (isCredentialsNotYet(answer)) return { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: '', reason: 'ServiceUnavailable', code: 503 };
  if (answer.status >= 400) return expectStatusFailure(probe, answer);
  if (answer.status < 200 || (answer.status >= 300 && answer.status !== 304)) {
    throw new Error(`unexpected status:\n${show(probe, answer)}`);
  }
  const type = String(answer.headers['content-type'] ?? '');
  if (answer.status === 200 && !answer.streamed && type.startsWith('application/json') && probe.method !== 'HEAD') {
    try {
      JSON.parse(answer.body);
    } catch {
      throw new Error(`a JSON success that does not parse:\n${show(probe, answer)}`);
    }
  }
  return undefined;
}

/**
 * The oracle of a create, update or patch (`what`): a Kubernetes answer (see expectKubeAnswer);
 * a refused or dry-run write left the store as it was (`wrote` says whether it changed); a write
 * not refused answers `success`. Returns the Status of a refusal, undefined for a success.
 */
export function expectWriteAnswer(
  probe: ProbeRequest,
  answer: ProbeAnswer,
  write: { what: string; success: number; dryRun: boolean; wrote: string | undefined },
): StatusBody | undefined {
  const refusal = expectKubeAnswer(probe, answer);
  if ((refusal || write.dryRun) && write.wrote) {
    throw new Error(`a ${refusal ? 'refused' : 'dry-run'} ${write.what} wrote (${write.wrote}):\n${show(probe, answer)}`);
  }
  if (!refusal && answer.status !== write.success) {
    throw new Error(`${/^[aeiou]/.test(write.what) ? 'an' : 'a'} ${write.what} answered ${answer.status}:\n${show(probe, answer)}`);
  }
  return refusal;
}

/**
 * The one 5xx by design that reads can meet: the `connection` of an instance whose operator has
 * not created the Secret yet (a Pending instance of the demo) is a 503 with Retry-After.
 */
export function isCredentialsNotYet(answer: ProbeAnswer): boolean {
  if (answer.status !== 503 || answer.headers['retry-after'] === undefined) return false;
  // a HEAD answer carries no body to read the reason from
  return answer.body === '' || /"reason":"ServiceUnavailable".*are not available yet|are not available yet.*"reason":"ServiceUnavailable"/.test(answer.body);
}

/** Describes a probe and its answer for an assertion message. */
export const describeExchange = show;
