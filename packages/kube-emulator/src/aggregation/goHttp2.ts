import type http2 from 'node:http2';

/**
 * The settings of Go's HTTP/2 transport (golang.org/x/net/http2), which kube-apiserver's
 * aggregator and client-go dial with: 4 MiB a stream, frames up to 1 MiB. Node's defaults (64 KiB
 * windows, 16 KiB frames) would make a 6 MiB list wait for a hundred window updates.
 */
export const GO_HTTP2_SETTINGS: http2.Settings = { initialWindowSize: 4 << 20, maxFrameSize: 1 << 20 };

/** Go's connection-level window (1 GiB), set once the session is connected. */
export const GO_HTTP2_CONNECTION_WINDOW = 1 << 30;
