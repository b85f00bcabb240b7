/** An org's policy set the way the platform sets it: a `PolicyChanged` fact, folded by the event store's projector. */
import { projectBatch } from '@hireloop/event-store';
import { makeFact } from '@hireloop/fact-stream';
import type { Pool } from '@hireloop/platform';
import { type OrgPolicy, topicOf } from '@hireloop/schemas';
import { inject } from 'vitest';

let offset = 0;

export async function setPolicy(pool: Pool, orgId: string, policy: OrgPolicy, changedBy = 'admin'): Promise<void> {
  const fact = makeFact('PolicyChanged', { orgId, correlation: { userId: changedBy } }, { policy, changedBy });
  await projectBatch(pool, [
    {
      fact,
      topic: `${inject('topicPrefix')}${topicOf(fact.type).name}`,
      partition: 0,
      offset: String(offset++),
      headers: {},
    },
  ]);
}
