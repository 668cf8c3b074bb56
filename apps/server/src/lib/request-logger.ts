/**
 * Fastify's `childLoggerFactory`: each request's logger (`request.log`, bound to its `reqId`) is
 * made when something logs through it at an enabled level, not for every request. Fastify's own
 * child per request cost about 5 µs of an authenticated read's ~50 µs in `npm run bench` (pino
 * builds formatters and runs the redaction's wildcard stringifier over the bindings), and at
 * LOG_LEVEL=warn nearly every request logs nothing. Once made, the child is the usual pino child:
 * same bindings, same redaction, same destination.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogArgs = [unknown, ...unknown[]];

class RequestLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean },
    private readonly bindings: Bindings,
  ) {}

  private real(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings));
  }

  private log(level: Level, args: LogArgs): void {
    // A disabled level on the parent (and no child whose level may differ) logs nothing.
    if (!this.#child && this.parent.isLevelEnabled && !this.parent.isLevelEnabled(level)) return;
    (this.real()[level] as (...a: LogArgs) => void)(...args);
  }

  get level(): string {
    return (this.#child ?? this.parent).level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  fatal(...args: LogArgs) {
    this.log('fatal', args);
  }
  error(...args: LogArgs) {
    this.log('error', args);
  }
  warn(...args: LogArgs) {
    this.log('warn', args);
  }
  info(...args: LogArgs) {
    this.log('info', args);
  }
  debug(...args: LogArgs) {
    this.log('debug', args);
  }
  trace(...args: LogArgs) {
    this.log('trace', args);
  }
  silent() {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }
}

export function lazyChildLoggerFactory(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  // A route's own log level or serializers: the plain child (none of our routes sets them).
  for (const _ in options) return logger.child(bindings, options);
  return new RequestLogger(logger, bindings) as unknown as FastifyBaseLogger;
}
