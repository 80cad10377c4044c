import { describe, expect, it } from '@jest/globals';
import { waitForStore } from './waitForStore';

/** A store's onApplied, applied by hand. */
function applier() {
  const listeners = new Set<() => void>();
  return {
    onApplied: (l: () => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    apply: () => [...listeners].forEach(l => l()),
    listeners,
  };
}

describe('waitForStore', () => {
  it('answers at once when the condition holds, without subscribing', async () => {
    const a = applier();
    await expect(waitForStore(a.onApplied, () => true, 1000)).resolves.toBe(true);
    expect(a.listeners.size).toBe(0);
  });

  it('re-checks after every applied change and resolves on the one that makes it hold', async () => {
    const a = applier();
    let rv = 1;
    let checks = 0;
    const waiting = waitForStore(
      a.onApplied,
      () => {
        checks++;
        return rv >= 3;
      },
      60_000,
    );
    rv = 2;
    a.apply();
    rv = 3;
    a.apply();
    await expect(waiting).resolves.toBe(true);
    expect(checks).toBe(3);
    expect(a.listeners.size).toBe(0);
  });

  it('resolves false when the time is up, and unsubscribes', async () => {
    const a = applier();
    await expect(waitForStore(a.onApplied, () => false, 20)).resolves.toBe(false);
    expect(a.listeners.size).toBe(0);
  });
});
