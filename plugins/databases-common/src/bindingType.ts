/**
 * The Service Binding `type` per engine (the binding Secret's `type` entry): the names Spring
 * Cloud Bindings and Quarkus' service binding converters look for. MariaDB speaks MySQL's
 * protocol and both read `mysql` for it. An engine not listed is its own type.
 *
 * @public
 */
export function bindingType(engine: string): string {
  return engine === 'mariadb' ? 'mysql' : engine;
}
