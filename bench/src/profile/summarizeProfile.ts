/** A V8 CPU profile (`.cpuprofile`, what `node --cpu-prof` writes). */
export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

/** Time per function, self and inclusive (ms), most expensive first. */
export interface ProfileSummary {
  totalMs: number;
  self: Array<{ fn: string; ms: number }>;
  inclusive: Array<{ fn: string; ms: number }>;
}

const label = (n: CpuProfile['nodes'][number]) =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;

/**
 * Self and inclusive time per function (by name and location) of a CPU profile: what
 * docs/performance.md quotes. A function counts once per sample in the inclusive list, however
 * deep it recurses.
 */
export function summarizeProfile(profile: CpuProfile, top = 25): ProfileSummary {
  const byId = new Map(profile.nodes.map(n => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const perNode = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    perNode.set(id, (perNode.get(id) ?? 0) + dt);
    total += dt;
  });
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, ms] of perNode) {
    const key = label(byId.get(id)!);
    self.set(key, (self.get(key) ?? 0) + ms);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const k = label(byId.get(cur)!);
      if (!seen.has(k)) {
        seen.add(k);
        inclusive.set(k, (inclusive.get(k) ?? 0) + ms);
      }
    }
  }
  const sorted = (m: Map<string, number>) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([fn, ms]) => ({ fn, ms: Math.round(ms) }));
  return { totalMs: Math.round(total), self: sorted(self), inclusive: sorted(inclusive) };
}
