import { fullFormats } from 'ajv-formats/dist/formats';

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

/**
 * Every format a CRD schema may name, as kube-apiserver checks it: the ones kube-openapi and
 * ajv-formats implement alike, Go's durations, and the numeric ones kube does not check (a
 * replicas of 2^31 is accepted). Any other format is ignored (ajv's strict: false).
 */
export const KUBE_AJV_FORMATS: Record<string, (typeof fullFormats)[keyof typeof fullFormats] | RegExp | true> = {
  ...Object.fromEntries(KUBE_FORMATS.map(name => [name, fullFormats[name]])),
  duration: GO_DURATION,
  int32: true,
  int64: true,
  float: true,
  double: true,
};
