import { type FactPublisher, makeFact } from '@hireloop/fact-stream';
import type { ConnectionsChange } from './app';

/**
 * Announces a change of an org's connections as a `ConnectionsChanged` fact on `org-connections`
 * (keyed by org): every worker drops its cached view of that org's catalog on it, and the event store
 * keeps it for the audit (docs/decisions.md, 2026-11-27).
 */
export const factAnnouncer =
  (publisher: Pick<FactPublisher, 'publish'>) =>
  async ({ orgId, providers, version, changedBy }: ConnectionsChange): Promise<void> => {
    await publisher.publish(
      makeFact('ConnectionsChanged', { orgId, correlation: { userId: changedBy } }, { providers, version, changedBy }),
    );
  };
