/** Test support shared by every package's end-to-end tests (emulator + apiserver + kubectl). */
export { startSystem, type System, type StartSystemOptions } from './startSystem';
export { kubectlBinaries, runKubectl, spawnKubectl, parseTable, type KubectlResult } from './kubectl';
export { bindClusterRole, type ClusterRoleGrant } from './bindClusterRole';
export { quiesce, settleAfterWrite, wroteSince } from './quiesce';
