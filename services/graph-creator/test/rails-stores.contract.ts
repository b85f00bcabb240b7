/** One contract for the rails' stores, run against the in-memory twins (unit) and Postgres (int). */
import { randomUUID } from 'node:crypto';
import type { OrgPolicy } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import type { CircuitStore, PolicyStore, RateLimits } from '../src/tools/guards';
import { closedCircuit } from '../src/tools/rails';

export interface RailStores {
  /** the store the registry reads, and how a policy gets set in it (Postgres: a fact the event store folds) */
  policies: () => { store: PolicyStore; set(orgId: string, policy: OrgPolicy): Promise<void> };
  rates: () => RateLimits;
  circuits: () => CircuitStore;
}

export function railStoresContract(name: string, stores: RailStores): void {
  const t0 = new Date('2026-11-24T12:00:00Z');
  describe(`the rails' stores: ${name}`, () => {
    it('given no policy, then {}; given one put, then it is read back; a second put replaces it', async () => {
      const { store, set } = stores.policies();
      const org = `org-${randomUUID()}`;
      expect(await store.get(org)).toEqual({});
      await set(org, { allowedTools: ['stripe'] });
      expect(await store.get(org)).toEqual({ allowedTools: ['stripe'] });
      await set(org, { deniedTools: ['slack'] });
      expect(await store.get(org)).toEqual({ deniedTools: ['slack'] });
    });
    it('given a rate of 2/h, then two points are taken and the third says how long to wait; another key has its own', async () => {
      const rates = stores.rates();
      const key = `org-${randomUUID()}:slack.post_message`;
      expect(await rates.take(key, '2/h')).toEqual({ ok: true });
      expect(await rates.take(key, '2/h')).toEqual({ ok: true });
      const third = await rates.take(key, '2/h');
      expect(third.ok).toBe(false);
      expect(!third.ok && third.msBeforeNext > 0 && third.msBeforeNext <= 3_600_000).toBe(true);
      expect(await rates.take(`org-${randomUUID()}:slack.post_message`, '2/h')).toEqual({ ok: true });
    });
    it('given no row, then closed; failures to the threshold open it; one probe claim wins; success closes it', async () => {
      const circuits = stores.circuits();
      const org = `org-${randomUUID()}`;
      expect(await circuits.read(org, 'slack.post_message')).toEqual(closedCircuit);
      await circuits.report(org, 'slack.post_message', false, 2, t0);
      expect(await circuits.read(org, 'slack.post_message')).toEqual({ state: 'closed', failures: 1, since: null });
      await circuits.report(org, 'slack.post_message', false, 2, t0);
      const open = await circuits.read(org, 'slack.post_message');
      expect(open).toEqual({ state: 'open', failures: 2, since: t0 });
      // another tool of the org is not touched
      expect(await circuits.read(org, 'zendesk.reply_ticket')).toEqual(closedCircuit);
      const later = new Date(t0.getTime() + 60_000);
      const claims = await Promise.all([
        circuits.claimProbe(org, 'slack.post_message', open, later),
        circuits.claimProbe(org, 'slack.post_message', open, later),
      ]);
      expect(claims.sort()).toEqual([false, true]);
      expect(await circuits.read(org, 'slack.post_message')).toEqual({ state: 'half_open', failures: 2, since: later });
      await circuits.report(org, 'slack.post_message', true, 2, later);
      expect(await circuits.read(org, 'slack.post_message')).toEqual(closedCircuit);
    });
  });
}
