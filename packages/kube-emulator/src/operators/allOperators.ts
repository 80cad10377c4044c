import { mariadbOperator } from './mariadb-operator/mariadbOperator';
import { mysqlOperator } from './mysql-operator/mysqlOperator';
import { redisOperator } from './redis-operator/redisOperator';
import { eckOperator } from './eck/eckOperator';
import { rabbitmqOperator } from './rabbitmq-cluster-operator/rabbitmqOperator';
import type { EmulatedOperator } from './types';

/** The five emulated operators. */
export const ALL_OPERATORS: EmulatedOperator[] = [
  mariadbOperator,
  mysqlOperator,
  redisOperator,
  eckOperator,
  rabbitmqOperator,
];
