import fc from 'fast-check';

/**
 * Fragments parsers and encoders get wrong: quotes, escapes, separators of every grammar we
 * parse (selectors, media types, paths, JSON pointers), percent signs, control characters,
 * lone surrogates, right-to-left marks, characters outside Latin-1.
 */
const NASTY_FRAGMENTS = [
  '', ' ', '"', "'", '\\', '\\"', '/', '//', '..', '.', '%', '%2F', '%252F', '%00', '%zz', '?', '#', '&', '=', '==',
  '!=', '!', ',', ';', ':', '(', ')', '<', '>', '~', '~0', '~1', '*', '\t', '\n', '\r\n', '\u0000', '\u001b',
  '\u007f', '\u0085', '\u00a0', '\u00e9', '\u200e', '\u202e', '\u2028', '\ufeff', '\ud800', '\udfff', '\ud83d\ude00',
  '${x}', '{{x}}', '<script>', 'null', 'true', '-1', '1e309', 'NaN', '0x10', '__proto__', 'constructor', 'prototype',
];

/** One nasty fragment. */
export const nastyFragment = (): fc.Arbitrary<string> => fc.constantFrom(...NASTY_FRAGMENTS);

/** Any string, from plain ASCII to binary UTF-16 (lone surrogates included) and nasty fragments. */
export function hostileString(maxLength = 40): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength }) },
    { weight: 3, arbitrary: fc.array(nastyFragment(), { maxLength: 4 }).map(parts => parts.join('')) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.string({ maxLength: 8 }), nastyFragment(), fc.string({ maxLength: 8 }))
        .map(([a, b, c]) => `${a}${b}${c}`),
    },
  );
}

/** A very long string (kilobytes), to probe length limits without exceeding body limits. */
export const longString = (): fc.Arbitrary<string> =>
  fc.tuple(fc.constantFrom('a', 'é', '\u0000', 'x.', '-'), fc.integer({ min: 254, max: 70_000 })).map(([c, n]) => c.repeat(n));
