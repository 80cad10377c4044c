import { describe, expect, it } from '@jest/globals';
import { matchesLabels, parseLabelSelector } from './labelSelector';
import { StatusError } from './StatusError';

const objects: Record<string, Record<string, string> | undefined> = {
  x: { app: 'x', tier: 'db' },
  y: { app: 'y' },
  none: undefined,
  big: { size: '10' },
};

const select = (selector: string) =>
  Object.entries(objects)
    .filter(([, labels]) => matchesLabels(parseLabelSelector(selector), labels))
    .map(([n]) => n)
    .sort();

describe('label selectors', () => {
  it.each([
    ['', ['big', 'none', 'x', 'y']],
    ['app=x', ['x']],
    ['app==x', ['x']],
    ['app!=x', ['big', 'none', 'y']],
    ['app in (x,y)', ['x', 'y']],
    ['app in (x, y)', ['x', 'y']],
    ['app notin (x)', ['big', 'none', 'y']],
    ['app', ['x', 'y']],
    ['!app', ['big', 'none']],
    ['app=x,tier=db', ['x']],
    ['app=x,tier!=db', []],
    ['size>5', ['big']],
    ['size<5', []],
    ['example.com/team', []],
    ['app=', []],
  ])('%j selects %j', (selector, expected) => {
    expect(select(selector)).toEqual(expected);
  });

  it.each(['app===', 'app=x,', 'app in x', 'app in (x', ',app', 'app>x', 'app=x y', '-app=x', 'app=-x-'])(
    '%j is a 400 "unable to parse requirement"',
    selector => {
      let err: unknown;
      try {
        parseLabelSelector(selector);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(StatusError);
      expect((err as StatusError).status).toMatchObject({ code: 400, reason: 'BadRequest' });
      expect((err as StatusError).message).toMatch(/^unable to parse requirement: /);
    },
  );
});
