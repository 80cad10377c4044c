import type { RootLoggerService } from '@backstage/backend-plugin-api';

/** Every line a backend logged (any plugin, any level), as `<level> <message>`. */
export interface LogLines {
  lines: string[];
}

/** A root logger that appends each line to `sink` (children too), for tests that read the log. */
export function recordingRootLogger(sink: LogLines): RootLoggerService {
  const log = (level: string) => (message: string) => {
    sink.lines.push(`${level} ${message}`);
  };
  const logger: RootLoggerService = {
    error: log('error'),
    warn: log('warn'),
    info: log('info'),
    debug: log('debug'),
    child: () => logger,
  };
  return logger;
}
