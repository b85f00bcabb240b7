import type { Logger } from './logger';

export type Stop = () => Promise<void> | void;

/**
 * Graceful shutdown: on SIGTERM or SIGINT, runs the stop steps in reverse order of registration
 * (stop consuming first, close pools last), then exits 0; a second signal or a hung step exits 1.
 */
export class Lifecycle {
  private readonly steps: { name: string; stop: Stop }[] = [];
  private stopping: Promise<void> | undefined;

  constructor(
    private readonly log: Logger,
    private readonly timeoutMs = 15_000,
  ) {}

  onStop(name: string, stop: Stop): void {
    this.steps.push({ name, stop });
  }

  /** Wires SIGTERM/SIGINT and fatal errors to `shutdown`. */
  handleSignals(): void {
    const onSignal = (signal: NodeJS.Signals) => {
      if (this.stopping) {
        this.log.warn({ signal }, 'second signal: exiting now');
        process.exit(1);
      }
      this.log.info({ signal }, 'shutting down');
      void this.shutdown().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    process.on('unhandledRejection', (reason) => {
      this.log.error({ err: reason }, 'unhandled rejection');
    });
  }

  shutdown(): Promise<void> {
    this.stopping ??= this.runSteps();
    return this.stopping;
  }

  private async runSteps(): Promise<void> {
    const timer = setTimeout(() => {
      this.log.error({ timeoutMs: this.timeoutMs }, 'shutdown took too long: exiting');
      process.exit(1);
    }, this.timeoutMs);
    timer.unref();
    for (const { name, stop } of [...this.steps].reverse()) {
      try {
        await stop();
      } catch (error) {
        this.log.error({ err: error, step: name }, 'shutdown step failed');
      }
    }
    clearTimeout(timer);
    this.log.info('stopped');
  }
}
