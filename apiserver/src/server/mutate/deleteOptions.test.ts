import { describe, expect, it } from '@jest/globals';
import { StatusError } from '../StatusError';
import { parseDeleteOptions } from './deleteOptions';

const parse = (body: string) => () => parseDeleteOptions(Buffer.from(body), new URLSearchParams());

describe('parseDeleteOptions with values String() cannot convert (found by test/src/reliability)', () => {
  it.each([
    ['{"propagationPolicy":{"toString":0}}', 422],
    ['{"dryRun":[{"toString":0}]}', 422],
    ['{"dryRun":{"valueOf":1,"toString":1}}', 422],
    ['{"apiVersion":{"toString":0}}', 400],
    ['{"kind":{"toString":null}}', 400],
  ])('%s is a %i Status, not a TypeError', (body, code) => {
    let thrown: unknown;
    try {
      parse(body)();
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(StatusError);
    expect((thrown as StatusError).code).toBe(code);
  });

  it('still reads valid options', () => {
    expect(parse('{"apiVersion":"v1","kind":"DeleteOptions","dryRun":["All"],"propagationPolicy":"Foreground"}')()).toEqual({ dryRun: true, propagationPolicy: 'Foreground' });
  });
});
