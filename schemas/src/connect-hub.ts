/**
 * The Connect Hub's HTTP contract (ARCHITECTURE §8a): every query, params, body and response, as
 * TypeBox schemas. The hub validates and serializes with them; every client (graph-creator, the
 * runtime worker) checks the hub's answers against the same schemas — no service imports the hub's source.
 */

import { type Static, type TObject, type TProperties, Type } from '@sinclair/typebox';
import { CatalogCapability, CatalogTrigger } from './catalog';

/** Org, provider, capability and trigger ids (the same pattern as every id in hireloop). */
export const HubId = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:@-]+$' });

/** Most providers one org may connect in one PUT (the catalog's own bound). */
export const MAX_PROVIDERS = 500;

const withConnected = <T extends TProperties>(item: TObject<T>, description: string) =>
  Type.Object(
    { ...item.properties, connected: Type.Boolean({ description: 'whether the org has connected this provider' }) },
    { additionalProperties: false, description },
  );

export const CapabilityView = withConnected(CatalogCapability, 'a capability, with whether the org can use it now');
export type CapabilityView = Static<typeof CapabilityView>;

export const TriggerView = withConnected(CatalogTrigger, 'a trigger, with whether the org can use it now');
export type TriggerView = Static<typeof TriggerView>;

export const OrgQuery = Type.Object(
  { orgId: Type.Optional({ ...HubId, description: "the organisation; the token's own when absent" }) },
  { additionalProperties: false },
);
export type OrgQuery = Static<typeof OrgQuery>;

export const OrgParams = Type.Object({ orgId: HubId }, { additionalProperties: false });
export type OrgParams = Static<typeof OrgParams>;

export const CapabilityList = Type.Object(
  { orgId: HubId, capabilities: Type.Array(CapabilityView, { maxItems: 5000 }) },
  { additionalProperties: false, description: "every capability of the catalog, in the org's view" },
);
export type CapabilityList = Static<typeof CapabilityList>;

export const TriggerList = Type.Object(
  { orgId: HubId, triggers: Type.Array(TriggerView, { maxItems: 5000 }) },
  { additionalProperties: false, description: "every trigger of the catalog, in the org's view" },
);
export type TriggerList = Static<typeof TriggerList>;

export const Connections = Type.Object(
  {
    orgId: HubId,
    providers: Type.Array(HubId, { maxItems: MAX_PROVIDERS, description: 'connected provider ids, sorted' }),
    version: Type.Integer({ minimum: 0, description: "bumped by every change to the org's connections; 0 before the first" }),
  },
  { additionalProperties: false, description: 'the providers an org has connected' },
);
export type Connections = Static<typeof Connections>;

export const PutConnectionsBody = Type.Object(
  {
    providers: Type.Array(HubId, {
      maxItems: MAX_PROVIDERS,
      description: 'the whole set of connected provider ids (it replaces the current one; duplicates count once)',
    }),
  },
  { additionalProperties: false },
);
export type PutConnectionsBody = Static<typeof PutConnectionsBody>;

/** A 304 has no body: the caller's cached view (its ETag in If-None-Match) is still current. */
export const NotModified = Type.Null({ description: 'not modified: the cached view is current' });

/** Every 4xx and 5xx body. */
export const HubError = Type.Object(
  {
    code: Type.String({ maxLength: 64, description: 'stable, lower-case: unauthorized, not_found, validation_failed, …' }),
    message: Type.String({ maxLength: 2_000, description: 'what was wrong and how to fix it' }),
    field: Type.Optional(
      Type.String({ maxLength: 500, description: 'the failing field: a JSON pointer in a body, a name in a query' }),
    ),
    ref: Type.Optional(Type.String({ maxLength: 128, description: 'the id to quote when reporting a 5xx' })),
  },
  { additionalProperties: false },
);
export type HubError = Static<typeof HubError>;
