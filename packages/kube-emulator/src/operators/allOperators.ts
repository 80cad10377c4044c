import { mariadbOperator } from './mariadb-operator/mariadbOperator';
import { mysqlOperator } from './mysql-operator/mysqlOperator';
import { redisOperator } from './redis-operator/redisOperator';
import { eckOperator } from './eck/eckOperator';
import { rabbitmqOperator } from './rabbitmq-cluster-operator/rabbitmqOperator';
import { cloudnativePgOperator } from './cloudnative-pg/cloudnativePgOperator';
import type { EmulatedOperator } from './types';

/** The emulated operators, one per adapter. */
export const ALL_OPERATORS: EmulatedOperator[] = [
  mariadbOperator,
  mysqlOperator,
  redisOperator,
  eckOperator,
  rabbitmqOperator,
  cloudnativePgOperator,
];
