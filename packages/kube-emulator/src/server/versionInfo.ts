/** The `/version` document of a kube-apiserver reporting `gitVersion` (e.g. `v1.33.0`). */
export function versionInfo(gitVersion: string): Record<string, string> {
  const [major, minor] = gitVersion.replace(/^v/, '').split('.');
  return {
    major,
    minor,
    gitVersion,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2025-05-01T00:00:00Z',
    goVersion: `node-${process.version}`,
    compiler: 'tsc',
    platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
  };
}
