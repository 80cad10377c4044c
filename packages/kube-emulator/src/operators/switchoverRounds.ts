/**
 * How an emulated operator carries out a switchover to `to` (undefined: none asked for, or one it
 * would not make): the first round it sees the request it is switching (`done` false), the next
 * the new primary has taken over (`done` true). The operator's memory of the object (`memo`,
 * Observation.memo) holds the switchover begun.
 */
export function switchoverRound<T>(memo: Record<string, unknown>, to: T | undefined): { to: T; done: boolean } | undefined {
  if (to === undefined) {
    delete memo.switchingTo;
    return undefined;
  }
  const done = memo.switchingTo === to;
  if (done) delete memo.switchingTo;
  else memo.switchingTo = to;
  return { to, done };
}
