import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deployedAllocator, lastStageEnv } from './deployedAllocator';

const repoRoot = path.resolve(__dirname, '../../..');
const image = lastStageEnv(readFileSync(path.join(repoRoot, 'deploy/apiserver.Dockerfile'), 'utf8'));

describe('deployedAllocator', () => {
  it("reads only the last stage's ENV, pairs and continuation lines included", () => {
    const file = ['FROM a AS build', 'ENV LD_PRELOAD=/wrong.so', 'FROM b', 'ENV A=1 \\', '  B="two"', 'ENV C=3'].join('\n');
    expect(lastStageEnv(file)).toEqual({ A: '1', B: 'two', C: '3' });
  });

  it("starts the bench's apiserver with the image's preload and MALLOC_CONF where the library is installed", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'allocator-'));
    writeFileSync(path.join(dir, path.basename(image.LD_PRELOAD)), '');
    const found = deployedAllocator(repoRoot, [path.join(dir, 'none'), dir]);
    expect(found.env).toEqual({ LD_PRELOAD: path.join(dir, path.basename(image.LD_PRELOAD)), MALLOC_CONF: image.MALLOC_CONF });
    expect(found.note).toContain('as the image runs');
  });

  it('says so where it is not, and changes nothing', () => {
    const missing = deployedAllocator(repoRoot, [mkdtempSync(path.join(tmpdir(), 'allocator-'))]);
    expect(missing.env).toEqual({});
    expect(missing.note).toContain('NOT the image');
  });
});
