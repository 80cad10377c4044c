import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** What the kernel says about a process: resident memory and open file descriptors. */
export interface ProcessSample {
  at: number;
  rssBytes: number;
  fds: number;
  /** Open sockets among the file descriptors. */
  sockets: number;
}

/** Reads /proc/<pid> (Linux). */
export function sampleProcess(pid: number): ProcessSample {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
  let fds = 0;
  let sockets = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    fds++;
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) sockets++;
    } catch {
      // closed between the listing and the look
    }
  }
  return { at: Date.now(), rssBytes: rssKb * 1024, fds, sockets };
}
