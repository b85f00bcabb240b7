/**
 * The policy API through `app.inject()`, on real Postgres and Kafka: the facts the gateway publishes
 * are recorded and folded by the event store's own projector, as the event-store service does.
 */
import { fold, getOrgPolicy, type OrgPolicyState, orgPolicies } from '@hireloop/event-store';
import { HireloopError } from '@hireloop/platform';
import type { AnyFact } from '@hireloop/schemas';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerOf, fakeConnectHub, uid } from './fixtures';
import { type Harness, harness, recording } from './harness';

describe('GET/PUT /v1/orgs/:orgId/policy (app.inject, real Postgres)', () => {
  let h: Harness;
  let app: FastifyInstance;
  const org = uid('org');
  const admin = { userId: 'ada', orgId: org, role: 'admin' };
  const member = { userId: 'bob', orgId: org };
  const url = `/v1/orgs/${org}/policy`;
  const policy = {
    allowedTools: ['stripe', 'zendesk.reply_ticket'],
    argumentLimits: [{ capabilityId: 'stripe.refund_payment', argument: 'amount', max: 100 }],
    quietHours: { start: '22:00', end: '07:00', timeZone: 'Europe/Paris', during: 'defer' },
    rates: [{ capabilityId: 'stripe.refund_payment', rate: '10/m' }],
    budgets: { maxToolCalls: 20, maxTokens: 50_000, maxCreationRounds: 2, maxCreationRoutes: 1 },
  };

  beforeAll(async () => {
    h = await harness();
    app = await h.build({}, undefined, recording(h));
  });
  afterAll(async () => {
    await h.close();
  });

  const put = (payload: unknown, who: Record<string, string> = bearerOf(admin), to = url) =>
    app.inject({ method: 'PUT', url: to, payload: payload as Record<string, unknown>, headers: who });
  const get = (who: Record<string, string> = bearerOf(member), to = url) => app.inject({ method: 'GET', url: to, headers: who });

  it('an org without a policy reads {} with updatedAt null', async () => {
    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ orgId: org, policy: {}, updatedAt: null });
  });

  it('an admin sets the policy; every member of the org reads it back; the worker’s table holds it', async () => {
    const res = await put(policy);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ orgId: org, policy, updatedAt: expect.any(String) });
    expect((await get()).json()).toMatchObject({ policy });
    const { rows } = await h.pool.query('SELECT policy FROM org_policies WHERE org_id = $1', [org]);
    expect(rows).toEqual([{ policy }]);
    // the change is a fact: who set which policy, on the org's topic, for the audit and replay
    const fact = await h.collector.until(() => h.collector.of('PolicyChanged', (f) => f.orgId === org)[0], 'PolicyChanged');
    expect(fact).toMatchObject({ orgId: org, changedBy: 'ada', policy, correlation: { userId: 'ada' } });
    expect(fact.ts).toBe(res.json().updatedAt);
  });

  it('the policy is the projection of the org’s facts: folded again from `facts` alone, it is the same', async () => {
    const { rows } = await h.pool.query<{ seq: string; payload: AnyFact }>(
      `SELECT seq, payload FROM facts WHERE org_id = $1 AND type = 'PolicyChanged' ORDER BY seq`,
      [org],
    );
    expect(rows.length).toBeGreaterThan(0);
    const states = new Map<string, OrgPolicyState>();
    fold(
      orgPolicies,
      states,
      rows.map((r) => ({ fact: r.payload, seq: Number(r.seq) })),
    );
    const replayed = states.get(org);
    expect(await getOrgPolicy(h.pool, org)).toEqual({ orgId: org, policy: replayed?.policy, updatedAt: replayed?.updatedAt });
    expect(replayed?.policy).toEqual(policy);
  });

  it('a PUT answered once the event store records it: what it set is what GET reads, however late the projector', async () => {
    const slowOrg = uid('org');
    let release = () => {};
    const later = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = await h.build({}, undefined, recording(h, later));
    const slowAdmin = bearerOf({ userId: 'ada', orgId: slowOrg, role: 'admin' });
    const answer = slow.inject({ method: 'PUT', url: `/v1/orgs/${slowOrg}/policy`, payload: policy, headers: slowAdmin });
    // the fact is on the topic, not yet in the event store: the PUT has not answered
    await h.collector.until(() => h.collector.of('PolicyChanged', (f) => f.orgId === slowOrg)[0], 'PolicyChanged');
    const before = await slow.inject({ method: 'GET', url: `/v1/orgs/${slowOrg}/policy`, headers: slowAdmin });
    expect(before.json()).toEqual({ orgId: slowOrg, policy: {}, updatedAt: null });
    release();
    const res = await answer;
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ orgId: slowOrg, policy });
    const after = await slow.inject({ method: 'GET', url: `/v1/orgs/${slowOrg}/policy`, headers: slowAdmin });
    expect(after.json()).toEqual(res.json());
  });

  it('a tool hireloop’s own connector brings, which the catalog does not list (webhook.send), may be named like any other', async () => {
    const named = { deniedTools: ['webhook.send'], rates: [{ capabilityId: 'webhook.send', rate: '5/m' }] };
    const res = await put(named);
    expect(res.statusCode).toBe(200);
    expect((await get()).json()).toMatchObject({ policy: named });
    const limited = await put({ argumentLimits: [{ capabilityId: 'webhook.send', argument: 'url', max: 1 }] });
    expect(limited.statusCode).toBe(422);
    expect(limited.json()).toMatchObject({ field: '/argumentLimits/0/argument' });
    // (the org's policy as the tests after this one read it)
    expect((await put(policy)).statusCode).toBe(200);
  });

  it('with the Connect Hub away, a policy is checked against the built-in catalog: a good one is set, a bad one refused', async () => {
    const away = {
      ...fakeConnectHub(),
      capabilities: async () => {
        throw new HireloopError('UNAVAILABLE', 'the Connect Hub did not answer');
      },
    };
    const hubless = await h.build({}, undefined, recording(h), { connectHub: away });
    const awayOrg = uid('org');
    const awayAdmin = bearerOf({ userId: 'ada', orgId: awayOrg, role: 'admin' });
    const to = `/v1/orgs/${awayOrg}/policy`;
    const set = await hubless.inject({ method: 'PUT', url: to, payload: policy, headers: awayAdmin });
    expect(set.statusCode).toBe(200);
    const bad = await hubless.inject({ method: 'PUT', url: to, payload: { deniedTools: ['stripe.refund'] }, headers: awayAdmin });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ field: '/deniedTools/0' });
  });

  it('a bad body → 422 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ argumentLimits: [{ capabilityId: 'stripe.refund_payment', argument: 'amount', max: 'lots' }] }, '/argumentLimits/0/max'],
      [{ rates: [{ capabilityId: 'stripe.refund_payment', rate: '60 per minute' }] }, '/rates/0/rate'],
      [{ quietHours: { start: '25:00', end: '07:00', timeZone: 'UTC', during: 'defer' } }, '/quietHours/start'],
      [{ quietHours: { start: '22:00', end: '07:00', timeZone: 'Mars/Olympus', during: 'defer' } }, '/quietHours/timeZone'],
      [{ budgets: { maxCreationRounds: 0 } }, '/budgets/maxCreationRounds'],
      [{ budgets: { maxCreationRoutes: 2.5 } }, '/budgets/maxCreationRoutes'],
      [{ budgets: { maxTokens: 'many' } }, '/budgets/maxTokens'],
      // rules that could never apply: a tool, provider or argument the catalog does not have, a limit on text, an empty window
      [{ argumentLimits: [{ capabilityId: 'stripe.refund', argument: 'amount', max: 100 }] }, '/argumentLimits/0/capabilityId'],
      [
        { argumentLimits: [{ capabilityId: 'stripe.refund_payment', argument: 'notAnArg', max: 1 }] },
        '/argumentLimits/0/argument',
      ],
      [
        { argumentLimits: [{ capabilityId: 'stripe.refund_payment', argument: 'paymentId', max: 1 }] },
        '/argumentLimits/0/argument',
      ],
      [{ rates: [{ capabilityId: 'nope.nothing', rate: '5/m' }] }, '/rates/0/capabilityId'],
      [{ deniedTools: ['stripe', 'strpe.refund_payment'] }, '/deniedTools/1'],
      [{ allowedTools: ['x'] }, '/allowedTools/0'],
      [{ quietHours: { start: '22:00', end: '22:00', timeZone: 'UTC', during: 'defer' } }, '/quietHours/end'],
    ];
    for (const [body, field] of cases) {
      const res = await put(body);
      expect(res.statusCode, field).toBe(422);
      expect(res.json().field, JSON.stringify(res.json())).toBe(field);
    }
    const unknown = await put({ allowEverything: true });
    expect(unknown.statusCode).toBe(422);
    expect(JSON.stringify(unknown.json())).toContain('allowEverything');
  });

  it('a member who is not an admin → 403, and the policy is unchanged', async () => {
    const res = await put({}, bearerOf(member));
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('forbidden');
    expect((await get()).json()).toMatchObject({ policy });
  });

  it('another org → 404, for reading and changing, even for its admin', async () => {
    const outsider = { userId: 'eve', orgId: uid('org'), role: 'admin' };
    expect((await get(bearerOf(outsider))).statusCode).toBe(404);
    expect((await put({}, bearerOf(outsider))).statusCode).toBe(404);
    expect((await get()).json()).toMatchObject({ policy });
  });
});
