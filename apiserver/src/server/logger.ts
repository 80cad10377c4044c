/** What the HTTP layer logs through (a Backstage-style logger or a console fits). */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** JSON lines on stderr: the default when the caller passes no logger. */
export const consoleLogger: Logger = {
  info: (message, fields) => process.stderr.write(`${JSON.stringify({ level: 'info', message, ...fields })}\n`),
  warn: (message, fields) => process.stderr.write(`${JSON.stringify({ level: 'warn', message, ...fields })}\n`),
  error: (message, fields) => process.stderr.write(`${JSON.stringify({ level: 'error', message, ...fields })}\n`),
};
