import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { entrypointNodeFlags, imageNodeFlags } from './imageNodeFlags';

describe('entrypointNodeFlags', () => {
  it("takes the flags between node and the script of the last stage's exec-form ENTRYPOINT", () => {
    const file = [
      'FROM a AS build',
      'ENTRYPOINT ["node", "--wrong", "x.js"]',
      'FROM b',
      'ENTRYPOINT ["/nodejs/bin/node", "--a", \\',
      '  "--b=1", "/app/s.cjs", "--not-node"]',
    ].join('\n');
    expect(entrypointNodeFlags(file)).toEqual(['--a', '--b=1']);
    expect(entrypointNodeFlags('FROM b\nCMD []')).toEqual([]);
  });

  it("finds the image's young-generation size, which the memory figures depend on", () => {
    expect(imageNodeFlags(path.resolve(__dirname, '../../..'))).toContain('--max-semi-space-size=64');
  });
});
