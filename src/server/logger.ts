/** One-line JSON logs. Never pass tokens, keys or request bodies. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
): Logger {
  const at =
    (lvl: Exclude<LogLevel, 'silent'>) => (message: string, fields?: Record<string, unknown>) => {
      if (order[lvl] < order[level]) return;
      write(
        JSON.stringify({ time: new Date().toISOString(), level: lvl, msg: message, ...fields }),
      );
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
