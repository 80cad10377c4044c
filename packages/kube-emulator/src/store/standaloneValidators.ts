import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import standaloneCode from 'ajv/dist/standalone';

/** The name compiled validators `require` the formats by (see KUBE_AJV_FORMATS). */
export const FORMATS_MODULE = 'kube-emulator:formats';

/** Bumped when what goes into a cached validator changes in a way the schema does not show. */
const LAYOUT = 1;

/**
 * ajv's compiled validators of CRD schemas kept on disk as ajv's standalone code, so that a
 * process (a test file, an `npm start`) loads a big upstream CRD's validator in tens of
 * milliseconds instead of compiling it for a second. A validator is found by the hash of its
 * schema and of what built it; anything unreadable is compiled again, and a directory that
 * cannot be written only means no cache.
 */
export class StandaloneValidators {
  private writable = true;

  constructor(
    private readonly dir: string | undefined,
    private readonly formats: Record<string, unknown>,
    private readonly load: (id: string) => unknown,
  ) {}

  /** What built a validator's code besides its schema, for its cache key. */
  static buildKey(ajvVersion: string, formats: string[]): string {
    return JSON.stringify({ layout: LAYOUT, ajv: ajvVersion, formats });
  }

  /** A cached validator, or undefined. */
  get(key: string): ValidateFunction | undefined {
    if (!this.dir) return undefined;
    let code: string;
    try {
      code = readFileSync(this.file(key), 'utf8');
    } catch {
      return undefined;
    }
    try {
      const module: { exports: unknown } = { exports: {} };
      const require = (id: string) => (id === FORMATS_MODULE ? this.formats : this.load(id));
      // eslint-disable-next-line no-new-func
      new Function('require', 'module', 'exports', code)(require, module, module.exports);
      return typeof module.exports === 'function' ? (module.exports as ValidateFunction) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Keeps `fn` (compiled by `ajv` with `code.source`) for the next process. */
  put(key: string, ajv: Ajv, fn: ValidateFunction): void {
    if (!this.dir || !this.writable) return;
    const file = this.file(key);
    const temporary = `${file}.${process.pid}.tmp`;
    try {
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(temporary, standaloneCode(ajv, fn));
      // a reader sees the whole file or none (two processes may write the same one)
      renameSync(temporary, file);
    } catch {
      this.writable = false;
    }
  }

  private file(key: string): string {
    return path.join(this.dir!, `${key}.js`);
  }
}
