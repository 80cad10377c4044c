// react-dom ships no types here and @types/react-dom is not installed; this is the one call the app makes.
declare module 'react-dom/client' {
  import type { ReactNode } from 'react';

  export function createRoot(container: Element): { render(children: ReactNode): void };
}
