/** One change a watch reported. */
export interface WatchChange<T> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: T;
}

/**
 * Reads a watch's lines: each change goes to `onChange`, the resourceVersion to resume from
 * (changes and bookmarks) to `cursor.rv`; an `ERROR` 410 marks the cursor expired (list again);
 * a line that is not JSON is skipped rather than ending the watch.
 */
export function watchEventReader<T>(
  cursor: { rv?: string },
  onChange: (change: WatchChange<T>) => void,
): { onLine(line: string): void; expired(): boolean } {
  let expired = false;
  return {
    onLine: line => {
      let event: { type?: string; object?: any };
      try {
        event = JSON.parse(line);
      } catch {
        return;
      }
      if (event.type === 'ERROR') {
        if (event.object?.code === 410) expired = true;
        return;
      }
      const rv = event.object?.metadata?.resourceVersion;
      if (rv) cursor.rv = rv;
      if (event.type === 'ADDED' || event.type === 'MODIFIED' || event.type === 'DELETED') {
        onChange({ type: event.type, object: event.object as T });
      }
    },
    expired: () => expired,
  };
}
