import net from 'node:net';

/** Whether nothing listens on the loopback port right now (a bind of it succeeds). */
export function portFree(port: number): Promise<boolean> {
  return new Promise(resolve => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A port for a child process to bind, which it does only once started (seconds later). It is
 * picked below Linux's ephemeral range (32768-60999): every emulator and apiserver the other test
 * files start meanwhile listens on port 0, and the kernel could hand one of them an ephemeral port
 * picked here and released.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const candidate = 20_000 + Math.floor(Math.random() * 12_000);
    if (await portFree(candidate)) return candidate;
  }
}
