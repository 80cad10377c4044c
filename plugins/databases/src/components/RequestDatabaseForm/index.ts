export { RequestDatabaseForm } from './RequestDatabaseForm';
