import { randomFillSync } from 'node:crypto';
import { v5, v7 } from 'uuid';

/** Where ids and time come from: passed in, so that deciders and tests control them. */
export interface Clock {
  now(): Date;
}
export interface IdSource {
  /** a time-ordered uuid (v7) */
  newId(): string;
}

export const systemClock: Clock = { now: () => new Date() };
export const uuidV7: IdSource = { newId: () => v7() };

/**
 * Random bytes as hex, cut from a pool refilled 4 KiB at a time (like Node's `randomUUID`, which caches 128 at a time): one
 * `randomBytes` call per span id, one or two for every fact published, was about 1% of the router's
 * and the supervisor's CPU under load.
 */
const RANDOM_POOL_BYTES = 4096;
let randomPool = Buffer.alloc(0);
let randomUsed = 0;
export function randomHex(bytes: number): string {
  if (randomUsed + bytes > randomPool.length) {
    randomPool = randomFillSync(Buffer.allocUnsafe(Math.max(RANDOM_POOL_BYTES, bytes)));
    randomUsed = 0;
  }
  const hex = randomPool.toString('hex', randomUsed, randomUsed + bytes);
  randomUsed += bytes;
  return hex;
}

/** A W3C traceparent; a child keeps the trace id and gets a new span id. */
export function traceparent(parent?: string): string {
  const match = parent && /^00-([0-9a-f]{32})-[0-9a-f]{16}-([0-9a-f]{2})$/.exec(parent);
  const traceId = match ? match[1] : randomHex(16);
  return `00-${traceId}-${randomHex(8)}-${match ? match[2] : '01'}`;
}

const HIRELOOP_NAMESPACE = '6f1c2a64-5b1e-4c4e-9a57-2f0c1d3e4b5a';

/**
 * An id derived from another (uuid v5): the same cause and purpose always give the same id, so a
 * redelivered input produces facts that downstream dedupes (event store, supervisor, gateway).
 */
export const derivedId = (causeId: string, purpose: string): string => v5(`${causeId}:${purpose}`, HIRELOOP_NAMESPACE);

/**
 * The execution a starting trigger becomes: the supervisor admits it under this id, and the gateway
 * answers a webhook with it before the supervisor has seen the trigger.
 */
export const executionIdOf = (triggerId: string): string => derivedId(triggerId, 'execution');
