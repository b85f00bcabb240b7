import type { FactPublisher } from '@hireloop/fact-stream';
import type { Clock, IdSource, Pool } from '@hireloop/platform';
import type { FastifyBaseLogger } from 'fastify';
import type { LivePrompts } from '../chat/live';

/** Where facts go. */
export type Publisher = Pick<FactPublisher, 'publish'>;

/** What a command needs from the outside: the read model, the stream, ids and time. */
export interface CommandDeps {
  pool: Pool;
  publisher: Publisher;
  ids: IdSource;
  clock: Clock;
  /** what the broadcast consumer saw of each execution, ahead of the projection */
  live?: Pick<LivePrompts, 'get' | 'askingIn' | 'claimAnswer' | 'releaseAnswer' | 'cancelled' | 'showTo'>;
  /** where a command says what it could not read and decided without */
  log?: Pick<FastifyBaseLogger, 'warn'>;
  /** how long a command whose answer is read back at once waits for the event store to record its fact */
  recordTimeoutMs?: number;
}

/** Ids and time, for the pure deciders. */
export type Minting = Pick<CommandDeps, 'ids' | 'clock'>;
