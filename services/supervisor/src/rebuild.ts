import type { Logger, Pool } from '@hireloop/platform';
import { AdmissionEvents, type AnyFact, describeErrors, Topics, validateFact } from '@hireloop/schemas';
import { evolve, initialState, type SupervisorFact, type SupervisorState } from './decider';
import { type EmployeeFact, evolveSchedules, type Schedules } from './schedule';

/** What the supervisor consumes live. */
export const INPUT_TOPICS = [Topics.triggers, Topics.hilPrompt, Topics.hilResponse, Topics.executionResult] as const;
/** What a rebuild folds: the inputs and the supervisor's own intents and events. */
export const REBUILD_TOPICS = [...INPUT_TOPICS, Topics.runIntent, Topics.executionEvents] as const;
/**
 * Of `execution-events`, the rebuild reads only the events that carry a decision: the supervisor's
 * own, and a worker's deferred and resumed runs stored there before they moved to `execution-result`.
 */
export const REBUILD_EVENTS = ['queued', 'prompt_reminder', 'step_deferred', 'step_resumed'] as const;
/** The ExecutionEvents the supervisor decides on live (on `execution-result`): a worker's run deferred and resumed. */
export const LIVE_EVENTS: ReadonlySet<string> = new Set(AdmissionEvents);

const isSupervisorFact = (fact: AnyFact): fact is SupervisorFact => {
  switch (fact.type) {
    case 'TriggerCreated':
    case 'RunIntent':
    case 'HILPrompt':
    case 'HILResponse':
    case 'ExecutionResult':
    case 'ExecutionEvent':
      return true;
    case 'UIMessage':
    case 'EmployeeActivated':
    case 'EmployeeDeactivated':
    case 'PolicyChanged':
    case 'ConnectionsChanged':
      return false;
    default: {
      const unhandled: never = fact;
      throw new Error(`unknown fact ${JSON.stringify(unhandled)}`);
    }
  }
};

export interface Rebuilt {
  state: SupervisorState;
  folded: number;
  skipped: number;
}

/**
 * The supervisor's state from the event store: every stored fact of its topics (of `execution-events`
 * only the events of `REBUILD_EVENTS`), in `seq` order,
 * folded with the same `evolve` the live consumer uses. Read in pages, so memory holds one page.
 */
export async function rebuildState(pool: Pool, topicPrefix: string, log: Logger, pageSize = 5_000): Promise<Rebuilt> {
  const topics = REBUILD_TOPICS.map((t) => `${topicPrefix}${t.name}`);
  const events = `${topicPrefix}${Topics.executionEvents.name}`;
  let state = initialState();
  let folded = 0;
  let skipped = 0;
  let after = '0';
  for (;;) {
    const { rows } = await pool.query<{ seq: string; payload: unknown }>(
      `SELECT seq::text AS seq, payload FROM facts
        WHERE topic = ANY($1) AND seq > $2::bigint AND (topic <> $4 OR payload->>'event' = ANY($5))
        ORDER BY seq LIMIT $3`,
      [topics, after, pageSize, events, REBUILD_EVENTS],
    );
    for (const row of rows) {
      const parsed = validateFact(row.payload);
      if (!parsed.ok || !isSupervisorFact(parsed.value)) {
        skipped++;
        log.warn(
          { seq: row.seq, errors: parsed.ok ? undefined : describeErrors(parsed.errors) },
          'stored fact skipped by the rebuild',
        );
        continue;
      }
      state = evolve(state, parsed.value);
      folded++;
    }
    const last = rows.at(-1);
    if (!last || rows.length < pageSize) return { state, folded, skipped };
    after = last.seq;
  }
}

/** The active cron workflows from the event store: every stored fact of the employees topic, in `seq` order. */
export async function rebuildSchedules(pool: Pool, topicPrefix: string, pageSize = 5_000): Promise<Schedules> {
  let schedules: Schedules = new Map();
  let after = '0';
  for (;;) {
    const { rows } = await pool.query<{ seq: string; payload: unknown }>(
      'SELECT seq::text AS seq, payload FROM facts WHERE topic = $1 AND seq > $2::bigint ORDER BY seq LIMIT $3',
      [`${topicPrefix}${Topics.employees.name}`, after, pageSize],
    );
    for (const row of rows) {
      const parsed = validateFact(row.payload);
      if (parsed.ok && (parsed.value.type === 'EmployeeActivated' || parsed.value.type === 'EmployeeDeactivated')) {
        schedules = evolveSchedules(schedules, parsed.value as EmployeeFact);
      }
    }
    const last = rows.at(-1);
    if (!last || rows.length < pageSize) return schedules;
    after = last.seq;
  }
}
