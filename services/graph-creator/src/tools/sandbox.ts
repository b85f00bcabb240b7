import { createHash } from 'node:crypto';
import type { CatalogCapability, JsonSchemaProperty } from '@hireloop/schemas';
import type { Connector, ConnectorContext } from './connector';

const digest = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A schema-valid value for one output property, derived from the call's key (the same call, the same answer). */
function sample(name: string, prop: JsonSchemaProperty, seed: string, providerId: string): unknown {
  const h = digest(`${seed}:${name}`);
  if (prop.enum?.length) return prop.enum[0];
  switch (prop.type) {
    case 'string':
      if (prop.format === 'email') return `sandbox-${h.slice(0, 8)}@example.com`;
      if (prop.format === 'date-time')
        return new Date(Date.UTC(2026, 0, 1) + (Number.parseInt(h.slice(0, 8), 16) % 31_536_000) * 1000).toISOString();
      if (prop.format === 'date') return '2026-01-01';
      if (prop.format === 'uri') return `https://sandbox.hireloop.invalid/${providerId}/${h.slice(0, 12)}`;
      return /id$/i.test(name) ? `${providerId}_sbx_${h.slice(0, 16)}` : `sandbox ${name}`;
    case 'number':
    case 'integer':
      return prop.minimum ?? 0;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default: {
      const never: never = prop.type;
      return never;
    }
  }
}

/** Whether an argument can stand for an output property of the same name (the same kind of value, within its bounds). */
function fits(value: unknown, prop: JsonSchemaProperty): boolean {
  if (prop.enum?.length) return typeof value === 'string' && prop.enum.includes(value);
  switch (prop.type) {
    case 'string':
      return typeof value === 'string' && !prop.format;
    case 'number':
      return (
        typeof value === 'number' &&
        (prop.minimum === undefined || value >= prop.minimum) &&
        (prop.maximum === undefined || value <= prop.maximum)
      );
    case 'integer':
      return Number.isInteger(value) && fits(value, { ...prop, type: 'number' });
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return false;
  }
}

/**
 * An answer valid against a capability's output schema (every property it declares), or `{}` when it
 * declares none. A property the call was given (the refund's `paymentId` and `amount`, the ticket's
 * `ticketId`) is answered with the argument, as the provider would; the rest is derived from `seed`.
 */
export function sandboxOutput(
  capability: CatalogCapability,
  seed: string,
  args: Record<string, unknown> = {},
): Record<string, unknown> {
  const schema = capability.outputSchema;
  if (!schema) return {};
  return Object.fromEntries(
    Object.entries(schema.properties).map(([name, prop]) => [
      name,
      fits(args[name], prop) ? args[name] : sample(name, prop, seed, capability.providerId),
    ]),
  );
}

/**
 * The sandbox: every catalog provider without a real connector. It acts on nothing outside; the
 * registry has validated the arguments and records the call as an effect like any other, and the
 * answer is deterministic (ids derive from the idempotency key) so later steps can bind to it.
 */
export const sandboxConnector: Connector = {
  call: async (capability, args, ctx: ConnectorContext) => sandboxOutput(capability, ctx.idempotencyKey, args),
};
