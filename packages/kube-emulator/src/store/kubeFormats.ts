/** Formats of kube-openapi's registry that ajv-formats implements alike. */
export const KUBE_FORMATS = [
  'date-time',
  'date',
  'uri',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
  'byte',
  'password',
] as const;

/** kube's `duration` format is Go's time.ParseDuration syntax (`1h30m`), not ISO 8601. */
export const GO_DURATION =
  /^[-+]?(\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))*$|^[-+]?0$/;
