export { OperatorEmulator } from './OperatorEmulator';
export type { OperatorEmulatorOptions } from './OperatorEmulator';
export { ALL_OPERATORS } from './allOperators';
export {
  mariadbOperator,
  MARIADB_KIND,
} from './mariadb-operator/mariadbOperator';
export {
  mysqlOperator,
  INNODBCLUSTER_KIND,
} from './mysql-operator/mysqlOperator';
export {
  redisOperator,
  REDIS_KIND,
  REDIS_CLUSTER_KIND,
  REDIS_REPLICATION_KIND,
  REDIS_SENTINEL_KIND,
} from './redis-operator/redisOperator';
export { eckOperator, ELASTICSEARCH_KIND } from './eck/eckOperator';
export {
  rabbitmqOperator,
  RABBITMQCLUSTER_KIND,
} from './rabbitmq-cluster-operator/rabbitmqOperator';
export {
  cloudnativePgOperator,
  CNPG_CLUSTER_KIND,
} from './cloudnative-pg/cloudnativePgOperator';
export type {
  CustomKind,
  EmulatedOperator,
  HealthMode,
  ObjectRef,
  Stage,
} from './types';
