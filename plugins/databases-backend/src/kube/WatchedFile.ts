import { readFile, stat } from 'node:fs/promises';

/**
 * A small file read again whenever it changes: a service-account token that the kubelet
 * rotates (a bound token lives about an hour) or a CA bundle. Each read costs a `stat`; the
 * content is re-read when the inode, size or mtime differ, which catches the kubelet's atomic
 * symlink swap of projected volumes as well as an in-place rewrite. `read(true)` re-reads
 * regardless (after a 401, in case a rewrite kept all three).
 */
export class WatchedFile {
  private signature?: string;
  private text?: string;
  private pending?: Promise<string>;

  constructor(readonly path: string) {}

  read(force = false): Promise<string> {
    // concurrent requests share one stat (and read), not one each
    if (!force && this.pending) return this.pending;
    const pending = this.load(force).finally(() => {
      if (this.pending === pending) this.pending = undefined;
    });
    this.pending = pending;
    return pending;
  }

  private async load(force: boolean): Promise<string> {
    const st = await stat(this.path);
    const signature = `${st.ino}:${st.size}:${st.mtimeMs}`;
    if (force || signature !== this.signature || this.text === undefined) {
      this.text = await readFile(this.path, 'utf8');
      this.signature = signature;
    }
    return this.text;
  }
}
