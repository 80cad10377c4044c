export { OwnerLink } from './OwnerLink';
