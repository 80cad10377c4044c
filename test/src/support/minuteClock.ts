/**
 * A clock for the emulator (KubeEmulatorOptions.now) that a test moves to just before the next
 * minute, so that a minutely cron fires seconds after its schedule is made instead of at the wall
 * clock's next minute (up to a minute later). It starts `behindMs` behind the wall clock and only
 * moves forward, never past it: the cluster's timestamps are never in the clients' future.
 */
export function minuteClock(behindMs = 180_000) {
  let offsetMs = -behindMs;
  const now = () => new Date(Date.now() + offsetMs);
  return {
    now,
    /** Moves the clock forward until its next minute is `leadMs` away (unless it is nearer already). */
    nearMinute(leadMs: number): void {
      const toNext = 60_000 - (now().getTime() % 60_000);
      if (toNext <= leadMs) return;
      if (offsetMs + toNext - leadMs > 0) throw new Error(`the emulator's clock would run ahead of the wall clock: start it further behind than ${behindMs} ms`);
      offsetMs += toNext - leadMs;
    },
  };
}
