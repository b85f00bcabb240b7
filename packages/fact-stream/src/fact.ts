import { type Clock, type IdSource, systemClock, uuidV7 } from '@hireloop/platform';
import type { AnyFact, FactOf } from '@hireloop/schemas';

type EnvelopeKeys = 'type' | 'id' | 'ts' | 'orgId' | 'correlation' | 'causationId';
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type FactBody<T extends AnyFact['type']> = DistributiveOmit<FactOf<T>, EnvelopeKeys>;

export interface FactContext {
  orgId: string;
  correlation: AnyFact['correlation'];
  /** the fact that caused this one */
  causationId?: string;
}

/** A new fact with a fresh time-ordered id and the current time. */
export function makeFact<T extends AnyFact['type']>(
  type: T,
  context: FactContext,
  body: FactBody<T>,
  deps: { ids?: IdSource; clock?: Clock } = {},
): FactOf<T> {
  const { ids = uuidV7, clock = systemClock } = deps;
  const fact = {
    type,
    id: ids.newId(),
    orgId: context.orgId,
    ts: clock.now().toISOString(),
    correlation: context.correlation,
    ...(context.causationId ? { causationId: context.causationId } : {}),
    ...body,
  };
  return fact as unknown as FactOf<T>;
}

/** The context of a fact caused by `cause`: same tenant and correlation, plus what is added. */
export const causedBy = (cause: AnyFact, correlation: Partial<AnyFact['correlation']> = {}): FactContext => ({
  orgId: cause.orgId,
  correlation: { ...cause.correlation, ...correlation },
  causationId: cause.id,
});

/** The ids a log line about this fact should carry. */
export function logContext(fact: AnyFact): Record<string, string> {
  const c = fact.correlation;
  const executionId = 'executionId' in fact ? fact.executionId : c.executionId;
  const conversationId = 'conversationId' in fact ? fact.conversationId : c.conversationId;
  return {
    factId: fact.id,
    factType: fact.type,
    orgId: fact.orgId,
    ...(executionId ? { executionId } : {}),
    ...(conversationId ? { conversationId } : {}),
    ...(c.triggerId ? { triggerId: c.triggerId } : {}),
  };
}
