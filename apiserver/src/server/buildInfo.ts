import { execFileSync } from 'node:child_process';
import { dirname } from 'node:path';
import packageJson from '../../package.json';

/** What the build stamped: the commit, whether the tree had changes, and when. */
export interface BuildStamp {
  gitCommit: string;
  gitTreeState: 'clean' | 'dirty' | '';
  buildDate: string;
}

// deploy/build-apiserver.sh defines this with esbuild's --define (kube-apiserver's ldflags).
declare const __DBAAS_BUILD__: BuildStamp | undefined;

/** kube's values when a binary is not stamped (k8s.io/component-base/version/base.go). */
const UNSTAMPED: BuildStamp = {
  gitCommit: '',
  gitTreeState: '',
  buildDate: '1970-01-01T00:00:00Z',
};

let fromCheckout: BuildStamp | undefined;

/**
 * The stamp of this build: the bundle's, or, run from a source checkout, the checkout's HEAD
 * (a dirty tree says so, as `hack/lib/version.sh` does). Asked of git once per process.
 */
export function buildStamp(): BuildStamp {
  if (typeof __DBAAS_BUILD__ !== 'undefined') return __DBAAS_BUILD__;
  if (!fromCheckout) fromCheckout = readCheckout(dirname(__filename));
  return fromCheckout;
}

function readCheckout(cwd: string): BuildStamp {
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    }).trim();
  try {
    const gitCommit = git('rev-parse', 'HEAD');
    const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
    return {
      gitCommit,
      gitTreeState: dirty ? 'dirty' : 'clean',
      buildDate: UNSTAMPED.buildDate,
    };
  } catch {
    // Not a checkout, or no git: unstamped, like a kube binary built without ldflags.
    return UNSTAMPED;
  }
}

/** The apiserver's package version, as kube's `major`, `minor` and `gitVersion` (`v0.1.0`). */
export function packageVersion(version: string = packageJson.version) {
  const [major = '0', minor = '0'] = version.split('.');
  return { major, minor, gitVersion: `v${version}` };
}
