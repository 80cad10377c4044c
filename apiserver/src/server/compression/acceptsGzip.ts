/**
 * Responses above this size are compressed for clients that accept gzip, as kube-apiserver's
 * `APIResponseCompression` does (its `defaultGzipThresholdBytes`): small bodies are not worth it.
 */
export const GZIP_THRESHOLD_BYTES = 128 * 1024;

/**
 * Whether an `Accept-Encoding` header allows gzip (RFC 9110 §12.5.3): `gzip` or `*` with a
 * non-zero quality, and not refused by a more specific `gzip;q=0`. client-go (and so kubectl,
 * unless `--disable-compression`) sends `gzip`.
 */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (!header) return false;
  let gzip: number | undefined;
  let any: number | undefined;
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [coding, ...params] = part.split(';').map(s => s.trim().toLowerCase());
    let q = 1;
    for (const p of params) {
      const m = /^q=([01](?:\.\d{0,3})?)$/.exec(p);
      if (m) q = Number(m[1]);
    }
    if (coding === 'gzip' || coding === 'x-gzip') gzip = Math.max(gzip ?? 0, q);
    else if (coding === '*') any = q;
  }
  return (gzip ?? any ?? 0) > 0;
}
