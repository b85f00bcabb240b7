import { makeFact } from '@hireloop/fact-stream';
import { type AnyFact, ExecutionEventKinds, type FactOf } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import { isPassiveEvent, passiveEvent, projections } from '../src';
import { factsFor, script, steppingClock } from './builders';

/**
 * A rebuild folds a passive ExecutionEvent (`isPassiveEvent`) as its execution, org, kind and time only,
 * and only when its execution has no row yet. Both shortcuts must change nothing: every projection
 * evolves the same from the whole fact and from what the rebuild reads of it, and never changes an
 * existing state for it.
 */

type Event = FactOf<'ExecutionEvent'>;

const s = script();
const f = factsFor(s, steppingClock());

/** Every kind, bare and with each optional field no fold reads, and with those a fold reads. */
function events(): Event[] {
  const ctx = { orgId: s.orgId, correlation: { conversationId: s.conversationId, userId: s.userId, executionId: s.executionId } };
  const at = '2026-11-22T11:00:00.000Z';
  const extras: Partial<Event>[] = [
    {},
    { node: 'analyse' },
    { detail: 'stale answer', promptId: 'p-9' },
    { stepId: 's1', reason: 'policy_denied', at, deadline: at },
    { position: 2, ticket: 5 },
    { phase: 'matching' },
    { progress: 40 },
    {
      stepId: 's1',
      effect: {
        idempotencyKey: `${s.executionId}:s1`,
        stepId: 's1',
        capabilityId: 'slack.post_message',
        args: { text: 'hi' },
        status: 'succeeded',
        at,
      },
    },
  ];
  return ExecutionEventKinds.flatMap((event) =>
    extras.map((extra) => makeFact('ExecutionEvent', ctx, { executionId: s.executionId, event, ...extra }) as Event),
  );
}

/** States an execution's row goes through: none, started, waiting on a prompt, queued, ended. */
function states(): { label: string; facts: AnyFact[] }[] {
  return [
    { label: 'no row', facts: [] },
    { label: 'started', facts: [f.start()] },
    { label: 'waiting', facts: [f.start(), f.event('analysis', 10), f.prompt('p1', 30)] },
    { label: 'queued', facts: [f.queued(3)] },
    { label: 'completed', facts: [f.start(), f.completed()] },
  ];
}

const stub = (event: Event) => passiveEvent(event.executionId, event.orgId, event.event, event.ts);

describe('passive execution events (what a rebuild need not parse)', () => {
  const all = events();

  it('given the kinds and fields, exactly the events without progress, phase or effect, other than queued and refused, are passive', () => {
    for (const event of all) {
      const folded =
        event.progress !== undefined ||
        event.phase !== undefined ||
        event.effect !== undefined ||
        event.event === 'queued' ||
        event.event === 'refused';
      expect(isPassiveEvent(event), `${event.event} ${JSON.stringify(Object.keys(event))}`).toBe(!folded);
    }
    expect(all.filter(isPassiveEvent).length).toBeGreaterThan(50);
  });

  it('given any state, every projection evolves the same from a passive event and from what a rebuild reads of it', () => {
    for (const { label, facts } of states()) {
      for (const event of all.filter(isPassiveEvent)) {
        // a projection evolves only on the fact types it declares (`fold` hands it no other)
        for (const projection of projections.filter((p) => (p.types as ReadonlySet<string>).has('ExecutionEvent'))) {
          const declared = projection.types as ReadonlySet<string>;
          const state = facts.reduce<unknown>(
            (current, fact, i) =>
              declared.has(fact.type)
                ? (projection.evolve as (s: unknown, f: AnyFact, q: number) => unknown)(current, fact, i + 1)
                : current,
            null,
          );
          const evolve = projection.evolve as (s: unknown, f: AnyFact, q: number) => unknown;
          const whole = evolve(state, event, 100);
          expect(evolve(state, stub(event), 100), `${projection.name} ${label} ${event.event}`).toEqual(whole);
          // an existing state never changes: a rebuild skips the event when its execution has a row
          if (state !== null) expect(whole, `${projection.name} ${label} ${event.event}`).toBe(state);
        }
      }
    }
  });

  it('given a fact of another kind, it is never passive', () => {
    expect([f.start(), f.prompt('p1'), f.answer('p1'), f.completed(), f.uiMessage()].some(isPassiveEvent)).toBe(false);
  });
});
