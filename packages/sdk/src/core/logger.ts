/** Log levels, most to least verbose; `off` logs nothing. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

/** What the SDK logs to. Any object with these methods works (pino, console, winston...). */
export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, off: 100 };

/** Headers whose values never reach a log. */
const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'x-service-api-key', 'cookie', 'set-cookie']);

/** A copy of `headers` with credentials replaced by `***`. */
export const redactHeaders = (headers: Headers | Record<string, string>): Record<string, string> => {
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  return Object.fromEntries(
    entries.map(([name, value]) => [name, SECRET_HEADERS.has(name.toLowerCase()) ? '***' : value]),
  );
};

const isLogLevel = (value: unknown): value is LogLevel => typeof value === 'string' && value in RANK;

/** `VOICE_EVAL_LOG` from the environment, when it names a level. */
const envLevel = (): LogLevel | undefined => {
  const value = globalThis.process?.env?.VOICE_EVAL_LOG?.toLowerCase();
  return isLogLevel(value) ? value : undefined;
};

/** Writes one line per entry to stderr where there is one (Node, Bun, Deno); elsewhere drops it. */
const stderrLogger: Logger = (() => {
  const write = (level: string) => (message: string, data?: Record<string, unknown>) => {
    const line = `[voice-eval] ${level} ${message}${data ? ` ${JSON.stringify(data)}` : ''}\n`;
    globalThis.process?.stderr?.write?.(line);
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
})();

/**
 * The logger the client uses: `logger` (default: stderr) filtered to `level`, which defaults to
 * `VOICE_EVAL_LOG`, else `warn`.
 */
export const createLogger = (logger: Logger | undefined, level: LogLevel | undefined): Logger => {
  const min = RANK[level ?? envLevel() ?? 'warn'];
  const sink = logger ?? stderrLogger;
  const at =
    (name: Exclude<LogLevel, 'off'>) =>
    (message: string, data?: Record<string, unknown>): void => {
      if (RANK[name] >= min) sink[name](message, data);
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
};
