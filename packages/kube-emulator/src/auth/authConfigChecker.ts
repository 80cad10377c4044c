/** A mapping of the auth file. */
export type Obj = Record<string, unknown>;

/**
 * Reads the auth file's values, collecting every problem (`<path>: <problem>`) instead of
 * stopping at the first: a bad file is refused with all that is wrong with it.
 */
export class Checker {
  readonly problems: string[] = [];

  isObject(value: unknown): value is Obj {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  }

  object(value: unknown, at: string, allowed: string[]): Obj | undefined {
    if (!this.isObject(value)) {
      this.problems.push(`${at}: must be a mapping`);
      return undefined;
    }
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key))
        this.problems.push(
          `${at}.${key}: unknown key (allowed: ${allowed.join(', ')})`,
        );
    }
    return value;
  }

  string(value: unknown, at: string, required: boolean): string | undefined {
    if (value === undefined || value === null) {
      if (required) this.problems.push(`${at}: is required`);
      return undefined;
    }
    if (typeof value !== 'string' || value === '') {
      this.problems.push(`${at}: must be a non-empty string`);
      return undefined;
    }
    return value;
  }

  strings(
    value: unknown,
    at: string,
    opts: { required?: boolean; allowEmptyItems?: boolean } = {},
  ): string[] {
    if (value === undefined || value === null) {
      if (opts.required) this.problems.push(`${at}: is required`);
      return [];
    }
    if (!Array.isArray(value)) {
      this.problems.push(`${at}: must be a list of strings`);
      return [];
    }
    const out: string[] = [];
    value.forEach((item, i) => {
      // apiGroups uses '' for the core group, so only there is an empty string meaningful
      if (typeof item !== 'string' || (item === '' && !opts.allowEmptyItems)) {
        this.problems.push(`${at}[${i}]: must be a non-empty string`);
      } else {
        out.push(item);
      }
    });
    if (opts.required && out.length === 0 && value.length === 0)
      this.problems.push(`${at}: must not be empty`);
    return out;
  }

  list(value: unknown, at: string): unknown[] {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) {
      this.problems.push(`${at}: must be a list`);
      return [];
    }
    return value;
  }
}
