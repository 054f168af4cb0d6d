/** One pino-style log method: a structured object first, then an optional message. */
export type ProviderLogFn = (obj: Record<string, unknown>, msg?: string) => void;

/**
 * The logging surface providers need; a pino logger satisfies it. Providers log event names in
 * the `noun:verb` form (`ai:retry`) and never credentials: see `redact.ts`.
 */
export interface ProviderLogger {
  debug: ProviderLogFn;
  info: ProviderLogFn;
  warn: ProviderLogFn;
  error: ProviderLogFn;
}

const noop: ProviderLogFn = () => {};

/** A logger that drops everything, used when the caller passes none. */
export const NOOP_LOGGER: ProviderLogger = Object.freeze({
  debug: noop,
  info: noop,
  warn: noop,
  error: noop,
});
