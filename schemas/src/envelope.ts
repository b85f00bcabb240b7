import { type TProperties, Type } from '@sinclair/typebox';
import { Id, Timestamp, Uuid } from './common';

/** Who and what a fact belongs to; keys every log line and projection. */
export const Correlation = Type.Object(
  {
    conversationId: Type.Optional(Id),
    userId: Type.Optional(Id),
    executionId: Type.Optional(Id),
    triggerId: Type.Optional(Id),
  },
  { additionalProperties: false },
);

/** The fields every fact carries (ARCHITECTURE §3). */
export const EnvelopeFields = {
  id: Uuid,
  orgId: Id,
  ts: Timestamp,
  correlation: Correlation,
  causationId: Type.Optional(Uuid),
};

/** A fact: the envelope, its `type` literal, and its kind-specific body, nothing else. */
export function Fact<T extends string, P extends TProperties>(type: T, body: P, description: string) {
  return Type.Object({ type: Type.Literal(type), ...EnvelopeFields, ...body }, { additionalProperties: false, description });
}
