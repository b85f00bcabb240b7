import type { CatalogCapability } from '@hireloop/schemas';

/** What a connector knows of the call it makes. */
export interface ConnectorContext {
  orgId: string;
  executionId: string;
  stepId: string;
  /** executionId/stepId/hash(args): pass it on to providers that dedupe (e.g. Stripe's Idempotency-Key) */
  idempotencyKey: string;
  /** aborted when the run is cancelled while the call is made: a connector stops waiting for its provider */
  signal?: AbortSignal;
}

/**
 * One provider's way of acting (ARCHITECTURE §11): the sandbox for every catalog provider, real
 * ones for `http` and `webhook`, and any real provider plugged in by configuration (connectors.ts).
 * Arguments arrive already valid against the capability's input schema; the answer is checked
 * against its output schema by the tool registry.
 */
export interface Connector {
  call(capability: CatalogCapability, args: Record<string, unknown>, ctx: ConnectorContext): Promise<Record<string, unknown>>;
  /** capabilities this connector brings that the catalog may not list (e.g. `webhook.send`) */
  readonly capabilities?: readonly CatalogCapability[];
}

/** A refusal or failure of the provider, with a stable code for the effect's error. */
export class ConnectorError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ConnectorError';
  }
}
