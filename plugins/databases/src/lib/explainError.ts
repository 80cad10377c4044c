import { DatabasesApiError } from '../api/DatabasesApiError';

/** An error in words a developer can act on. */
export interface ErrorExplanation {
  title: string;
  /** The server's own message, verbatim. */
  detail: string;
  /** What to do next. */
  action: string;
}

const POLICY_HINT = /polic|admission|quota|denied|not allowed|limit/i;

/**
 * Turns any failure of a portal call into what failed and what to do. `doing` names the
 * attempted action ("create the database", "scale orders-db").
 */
export function explainError(error: unknown, doing: string): ErrorExplanation {
  if (!(error instanceof DatabasesApiError)) {
    // not `instanceof Error`: errors from another realm (iframes, test environments) fail that check
    const message = (error as { message?: unknown } | undefined)?.message;
    const detail = typeof message === 'string' ? message : String(error);
    return {
      title: `Could not ${doing}`,
      detail,
      action: 'Backstage could not be reached. Check your connection and try again.',
    };
  }
  const { statusCode, reason, message } = error;
  if (statusCode === 401) {
    return { title: 'You are signed out', detail: message, action: 'Reload the page and sign in again.' };
  }
  if (statusCode === 403) {
    const policy = POLICY_HINT.test(message) && reason !== 'Forbidden';
    return policy
      ? {
          title: `A policy refused to ${doing}`,
          detail: message,
          action: 'Change the request to fit the policy above, or ask the platform team for an exception.',
        }
      : {
          title: `You are not allowed to ${doing}`,
          detail: message,
          action: "Ask the owning team or the platform team to grant you access; the owner's members can do this.",
        };
  }
  if (statusCode === 409 && reason === 'AlreadyExists') {
    return { title: 'That name is taken', detail: message, action: 'Pick another name; names are unique per namespace.' };
  }
  if (statusCode === 409) {
    return { title: 'The database changed meanwhile', detail: message, action: 'Reload to see the latest state, then try again.' };
  }
  if (statusCode === 422 || reason === 'Invalid' || (statusCode === 400 && error.causes.length > 0)) {
    return { title: 'Some values are not accepted', detail: message, action: 'Fix the fields marked below and try again.' };
  }
  if (statusCode === 400) {
    return { title: `Could not ${doing}`, detail: message, action: 'Check the values and try again.' };
  }
  if (statusCode === 404) {
    return { title: 'Not found', detail: message, action: 'It may have been deleted; go back to the list.' };
  }
  if (statusCode === 429) {
    return { title: 'Too many requests', detail: message, action: 'Wait a few seconds and try again.' };
  }
  if (statusCode === 502 || statusCode === 503 || statusCode === 504) {
    return {
      title: 'The cluster did not answer',
      detail: message,
      action: 'Try again in a minute. If it lasts, tell the platform team the cluster is unreachable.',
    };
  }
  return {
    title: `Could not ${doing}`,
    detail: message,
    action: 'Try again. If it happens again, tell the platform team and include the message above.',
  };
}
