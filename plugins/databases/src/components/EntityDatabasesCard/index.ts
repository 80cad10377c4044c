export { EntityDatabasesCard } from './EntityDatabasesCard';
export { EntityDatabasesContent } from './EntityDatabasesContent';
