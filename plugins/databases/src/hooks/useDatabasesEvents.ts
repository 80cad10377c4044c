import { useApi } from '@backstage/core-plugin-api';
import { useEffect, useRef, useState } from 'react';
import { databasesApiRef, DatabasesEventHandlers } from '../api/types';

/**
 * Subscribes to the backend's live events while the component is mounted. Handlers may change
 * on every render without reconnecting. Returns whether the stream is currently broken.
 */
export function useDatabasesEvents(handlers: DatabasesEventHandlers): { disconnected: boolean } {
  const api = useApi(databasesApiRef);
  const ref = useRef(handlers);
  ref.current = handlers;
  const [disconnected, setDisconnected] = useState(false);
  useEffect(
    () =>
      api.subscribe({
        onInstance: event => {
          setDisconnected(false);
          ref.current.onInstance?.(event);
        },
        onCluster: event => {
          setDisconnected(false);
          ref.current.onCluster?.(event);
        },
        onOpen: () => {
          setDisconnected(false);
          ref.current.onOpen?.();
        },
        onError: error => {
          setDisconnected(true);
          ref.current.onError?.(error);
        },
      }),
    [api],
  );
  return { disconnected };
}

/** Calls `fn` at most once per `ms`, after the last call (for refetching on bursts of events). */
export function useDebounced(fn: () => void, ms: number): () => void {
  const fnRef = useRef(fn);
  fnRef.current = fn;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useRef(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => fnRef.current(), ms);
  }).current;
}
