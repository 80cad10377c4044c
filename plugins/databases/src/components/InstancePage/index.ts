export { InstancePage } from './InstancePage';
