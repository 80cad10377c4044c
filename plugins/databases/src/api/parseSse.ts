/** One complete server-sent event. */
export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/**
 * Incremental parser for `text/event-stream` (the WHATWG rules we need: `event`, `data`, `id`,
 * comments, CRLF/LF, multi-line data). Feed it chunks as they arrive; it returns the events
 * each chunk completed and keeps the unfinished rest for the next one. We parse ourselves
 * because EventSource cannot send the Backstage token, so the stream comes through fetch.
 */
export function createSseParser(): (chunk: string) => SseMessage[] {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | undefined;

  return chunk => {
    buffer += chunk;
    const out: SseMessage[] = [];
    let newline = buffer.search(/\r\n|\r|\n/);
    while (newline >= 0) {
      // A lone trailing \r may be the first half of \r\n: wait for more input.
      if (buffer[newline] === '\r' && newline === buffer.length - 1) break;
      const line = buffer.slice(0, newline);
      const skip = buffer.startsWith('\r\n', newline) ? 2 : 1;
      buffer = buffer.slice(newline + skip);
      if (line === '') {
        if (data.length > 0) {
          out.push({ event: event || 'message', data: data.join('\n'), id });
        }
        event = '';
        data = [];
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
        else if (field === 'id') id = value;
      }
      newline = buffer.search(/\r\n|\r|\n/);
    }
    return out;
  };
}
