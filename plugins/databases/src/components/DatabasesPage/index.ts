export { DatabasesPage } from './DatabasesPage';
