import { type Logger, pino } from 'pino';

export type { Logger } from 'pino';

/** JSON logs on stdout, one line per event, with the service name on every line. */
export function createLogger(service: string, level = 'info'): Logger {
  return pino({ level, base: { service }, timestamp: pino.stdTimeFunctions.isoTime });
}
