import { epochNow } from './epochNow';

/** Reads the chunks of a response as lines: `read` is the response's `data` listener. */
export interface LineReader {
  read(chunk: Buffer): void;
  /** Bytes read so far. */
  bytes(): number;
}

/** Splits what arrives into lines and calls `onLine` with each and when its chunk arrived ({@link epochNow}). */
export function lineReader(onLine: (line: string, at: number) => void): LineReader {
  let bytes = 0;
  let rest = '';
  return {
    read: chunk => {
      const at = epochNow();
      bytes += chunk.length;
      rest += chunk.toString();
      let nl = rest.indexOf('\n');
      while (nl >= 0) {
        onLine(rest.slice(0, nl), at);
        rest = rest.slice(nl + 1);
        nl = rest.indexOf('\n');
      }
    },
    bytes: () => bytes,
  };
}
