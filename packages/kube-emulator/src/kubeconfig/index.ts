export * from './buildKubeconfig';
