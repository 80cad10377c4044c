/** What a mirrored event says it is about, when not the instance's operator object. */
export interface MirroredEventSubject {
  kind?: string;
  name?: string;
}

const prefixOf = (about: MirroredEventSubject) => `${about.kind} ${about.name}: `;

/**
 * The message the apiserver gives an event it mirrors onto a DatabaseInstance from another object
 * (a pod, a claim): `kubectl describe` has one message column, so the message names the object.
 */
export function mirroredEventMessage(about: MirroredEventSubject, message: string | undefined): string {
  return `${prefixOf(about)}${message ?? ''}`.trimEnd();
}

/**
 * The object and the operator's message apart again, for a table with a column for each: the
 * inverse of {@link mirroredEventMessage} given the event's `related` object. A message not
 * written that way (the operator object's own, or an event someone else wrote) is left whole.
 */
export function splitMirroredEventMessage(
  related: MirroredEventSubject | undefined,
  message: string | undefined,
): { about?: string; message?: string } {
  if (!related?.kind || !related.name || message === undefined) return { message };
  const prefix = prefixOf(related);
  const about = `${related.kind} ${related.name}`;
  if (message.startsWith(prefix)) return { about, message: message.slice(prefix.length) };
  if (message === prefix.trimEnd()) return { about, message: '' };
  return { message };
}
