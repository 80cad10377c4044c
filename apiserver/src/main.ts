/* eslint-disable no-console */
import { parseOptions } from './options/parseOptions';
import { validateOptions } from './options/validateOptions';
import { startApiserver } from './startApiserver';

async function main() {
  const { options, errors } = parseOptions(process.argv.slice(2), process.env);
  const problems = [...errors, ...validateOptions(options)];
  if (problems.length > 0) {
    for (const p of problems) console.error(`error: ${p}`);
    process.exit(2);
  }
  // Handlers first, as kube-apiserver sets up its signal handler before it starts: a SIGTERM
  // right after (or before) the "Serving" line is a graceful shutdown, never a kill.
  const starting = startApiserver(options);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(JSON.stringify({ level: 'info', message: 'Shutting down', signal }));
    // Unready first so endpoints drop us, keep serving for a moment, then end watches cleanly;
    // whatever is still open when the grace period ends is cut, so we exit before the kubelet's
    // SIGKILL (terminationGracePeriodSeconds, 30 s by default) and can still say so in the log.
    const delay = Number(process.env.DBAAS_APISERVER_SHUTDOWN_DELAY_MS ?? 2000);
    const grace = Math.max(delay + 1000, Number(process.env.DBAAS_APISERVER_SHUTDOWN_GRACE_MS ?? 28_000));
    const running = await starting;
    const started = Date.now();
    await running.shutdown(delay, grace);
    console.error(JSON.stringify({ level: 'info', message: 'Shut down', signal, durationMs: Date.now() - started }));
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  await starting;
}

main().catch(err => {
  console.error(JSON.stringify({ level: 'error', message: 'Start-up failed', error: String(err?.stack ?? err) }));
  process.exit(1);
});
