/**
 * A registered employee switched on and fired (ARCHITECTURE §11), every service its own process:
 * signed webhooks with delivery dedupe, refusals, tenant isolation of its runs, and cron slots fired
 * exactly once per minute by two supervisors, the leader killed half-way.
 */
import { randomUUID } from 'node:crypto';
import { FactPublisher } from '@hireloop/fact-stream';
import { FactCollector } from '@hireloop/fact-stream/testing';
import { createKafka, createLogger, createPool, executionIdOf } from '@hireloop/platform';
import { type ServiceProcess, waitUntil } from '@hireloop/platform/testing';
import { Topics } from '@hireloop/schemas';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { employeeSpec, step, workflow } from '../packages/event-store/test/builders';
import { activate, api, registerEmployee, Stack, signHook, token } from './stack';

describe('employee triggers (every service its own process)', () => {
  const stack = new Stack({ MAX_RUNNING_PER_ORG: '100', CRON_TICK_MS: '1000' });
  const log = createLogger('employee-triggers', 'silent');
  const kafka = createKafka({ clientId: 'employee-triggers', brokers: inject('kafkaBrokers'), log });
  const publisher = new FactPublisher({ kafka, topicPrefix: inject('topicPrefix'), log });
  /** every RunIntent on the topic, repeats of one fact id included (the event store keeps a fact once) */
  const intents = new FactCollector(kafka, inject('topicPrefix'), [Topics.runIntent]);
  const pool = createPool(inject('databaseUrl'));
  const alice = token('alice');
  const mallory = token('mallory', 'evil-corp', 'admin');
  let gateway: string;
  let supervisors: ServiceProcess[];
  /** employees switched on with a schedule: switched off before the stack goes, or the next files' supervisors fire them */
  const scheduled: string[] = [];

  beforeAll(async () => {
    const services = await stack.up(['event-store', 'connect-hub', 'supervisor', 'gateway']);
    gateway = `http://127.0.0.1:${services.gateway.port}`;
    // a second supervisor: it stands by while the first holds the lock
    supervisors = [services.supervisor, await stack.startStandby()];
    await publisher.connect();
    await intents.start();
  }, 240_000);
  afterAll(async () => {
    try {
      for (const employeeId of scheduled) {
        const off = await api(gateway, 'POST', `/v1/employees/${employeeId}/deactivate`, undefined, alice);
        expect(off.status).toBe(200);
        await waitUntil(
          async () => ((await statusOf(employeeId)) === 'inactive' ? true : undefined),
          'the scheduled employee inactive',
        );
      }
    } finally {
      await intents.stop();
      await publisher.disconnect();
      await pool.end();
      await stack.down();
    }
  });

  /** Alice's creation that registered the employee, as graph-creator would have published it: each workflow tells the team. */
  async function register(workflows: { id: string; triggerId: string; params?: Record<string, unknown> }[]): Promise<string> {
    const employeeId = randomUUID();
    const name = `Agent ${employeeId.slice(0, 6)}`;
    const tell = [step('s1', 'slack.post_message', { purpose: 'tell the team' })];
    const spec = employeeSpec(
      'acme',
      name,
      employeeId,
      workflows.map((w) => workflow(w.id, w.triggerId, { params: w.params, steps: tell, behaviourPrompt: 'be brief' })),
      `${name}: replies to support tickets`,
    );
    await registerEmployee(publisher, gateway, spec);
    return employeeId;
  }

  const statusOf = async (employeeId: string) =>
    (await api<{ status: string }>(gateway, 'GET', `/v1/employees/${employeeId}`, undefined, alice)).body.status;

  const runStarts = async (executionId: string): Promise<number> =>
    Number(
      (
        await pool.query(
          `SELECT count(*) AS n FROM facts WHERE type = 'RunIntent' AND execution_id = $1 AND payload->>'action' = 'start'`,
          [executionId],
        )
      ).rows[0].n,
    );

  describe('signed webhooks', () => {
    let employeeId: string;
    let secret: string;
    const body = JSON.stringify({ ticketId: '7', subject: 'my order is late', requesterEmail: 'ann@example.com' });
    const hook = (payload: string, headers: Record<string, string>) =>
      fetch(`${gateway}/v1/hooks/${employeeId}/tickets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: payload,
      });

    beforeAll(async () => {
      employeeId = await register([{ id: 'tickets', triggerId: 'zendesk.new_ticket' }]);
      const activated = await activate(gateway, employeeId, alice);
      expect(activated.status).toBe(200);
      expect(activated.body.hooks[0]?.url).toBe(`${gateway}/v1/hooks/${employeeId}/tickets`);
      secret = activated.body.hooks[0]?.secret ?? '';
      await waitUntil(async () => ((await statusOf(employeeId)) === 'active' ? true : undefined), 'the employee active');
    }, 120_000);

    it('the same delivery id twice → the same triggerId and executionId, one run', async () => {
      const delivery = `d-${randomUUID()}`;
      const first = await hook(body, { 'x-hireloop-signature': signHook(secret, body), 'x-hireloop-delivery': delivery });
      expect(first.status).toBe(202);
      const accepted = (await first.json()) as { triggerId: string; executionId: string };
      expect(accepted.executionId).toBe(executionIdOf(accepted.triggerId));
      const second = await hook(body, { 'x-hireloop-signature': signHook(secret, body), 'x-hireloop-delivery': delivery });
      expect(second.status).toBe(202);
      expect(await second.json()).toEqual(accepted);

      // the supervisor starts it as a run of the employee, once
      const run = await waitUntil(async () => {
        const res = await api<{ executionId: string }[]>(
          gateway,
          'GET',
          `/v1/executions/${accepted.executionId}`,
          undefined,
          alice,
        );
        return res.status === 200 ? res.body : undefined;
      }, 'the run projected');
      expect(run).toMatchObject({ executionId: accepted.executionId, status: 'running' });
      const runs = await api<{ executions: { executionId: string }[] }>(
        gateway,
        'GET',
        `/v1/executions?employeeId=${employeeId}`,
        undefined,
        alice,
      );
      expect(runs.body.executions.map((e) => e.executionId)).toEqual([accepted.executionId]);
      // both deliveries' triggers handled by the supervisor, and all it published read: it started the run
      // once (a second start would carry the same fact id, so the stored facts alone could not show it)
      await stack.handled('supervisor', [Topics.triggers]);
      await intents.caughtUp();
      expect(intents.of('RunIntent', (i) => i.executionId === accepted.executionId && i.action === 'start')).toHaveLength(1);
      await stack.handled('event-store', [Topics.triggers, Topics.runIntent]);
      expect(await runStarts(accepted.executionId)).toBe(1);
      const triggers = await pool.query(
        `SELECT count(*) AS n FROM facts WHERE type = 'TriggerCreated' AND payload->>'triggerId' = $1`,
        [accepted.triggerId],
      );
      expect(Number(triggers.rows[0].n)).toBe(1);

      // another org → 404 on the run, its effects and its prompts
      expect((await api(gateway, 'GET', `/v1/executions/${accepted.executionId}`, undefined, mallory)).status).toBe(404);
      expect((await api(gateway, 'GET', `/v1/executions/${accepted.executionId}/effects`, undefined, mallory)).status).toBe(404);
      const answer = await api(
        gateway,
        'POST',
        `/v1/executions/${accepted.executionId}/respond`,
        { promptId: 'any', kind: 'options', payload: { selected: ['approve'] } },
        mallory,
      );
      expect(answer.status).toBe(404);
      const inbox = await api<{ executions: { executionId: string }[] }>(
        gateway,
        'GET',
        '/v1/executions?status=awaiting_input',
        undefined,
        mallory,
      );
      expect(inbox.body.executions).toEqual([]);
      // its owner reads its effects (none yet: no worker runs it here)
      const effects = await api(gateway, 'GET', `/v1/executions/${accepted.executionId}/effects`, undefined, alice);
      expect(effects).toEqual({ status: 200, body: [] });
    }, 120_000);

    it('a bad signature → 401; a payload that breaks the trigger event schema → 422 naming the field', async () => {
      const bad = await hook(body, { 'x-hireloop-signature': signHook('guessed', body) });
      expect(bad.status).toBe(401);
      expect(await bad.json()).toMatchObject({ code: 'unauthorized' });
      const noId = JSON.stringify({ subject: 'no id', requesterEmail: 'ann@example.com' });
      const missing = await hook(noId, { 'x-hireloop-signature': signHook(secret, noId) });
      expect(missing.status).toBe(422);
      expect(await missing.json()).toMatchObject({ code: 'validation_failed', field: '/ticketId' });
      const badEmail = JSON.stringify({ ticketId: '8', requesterEmail: 42 });
      const wrongType = await hook(badEmail, { 'x-hireloop-signature': signHook(secret, badEmail) });
      expect(wrongType.status).toBe(422);
      expect(await wrongType.json()).toMatchObject({ code: 'validation_failed', field: '/requesterEmail' });
      const list = '[1,2]';
      const notObject = await hook(list, { 'x-hireloop-signature': signHook(secret, list) });
      expect(notObject.status).toBe(422);
      expect(await notObject.json()).toMatchObject({ code: 'validation_failed', field: '/' });
    });

    it('inactive → 409 employee_inactive', async () => {
      const off = await api(gateway, 'POST', `/v1/employees/${employeeId}/deactivate`, undefined, alice);
      expect(off).toMatchObject({ status: 200, body: { status: 'inactive' } });
      await waitUntil(async () => ((await statusOf(employeeId)) === 'inactive' ? true : undefined), 'the employee inactive');
      const refused = await hook(body, { 'x-hireloop-signature': signHook(secret, body), 'x-hireloop-delivery': randomUUID() });
      expect(refused.status).toBe(409);
      expect(await refused.json()).toMatchObject({ code: 'employee_inactive' });
    });
  });

  it('cron: with two supervisors running, a per-minute employee fires exactly once per minute over three minutes (the leader killed after the first)', async () => {
    const employeeId = await register([{ id: 'tick', triggerId: 'schedule.cron', params: { expression: '* * * * *' } }]);
    scheduled.push(employeeId);
    const activated = await activate(gateway, employeeId, alice);
    expect(activated.body.workflows).toEqual([
      { workflowId: 'tick', triggerId: 'schedule.cron', status: 'on', schedule: { cron: '* * * * *' } },
    ]);
    const activatedAt = Date.now();
    const firstSlot = Math.floor(activatedAt / 60_000) * 60_000 + 60_000;
    const slots = [firstSlot, firstSlot + 60_000, firstSlot + 120_000].map((t) => new Date(t).toISOString());

    const fired = async () =>
      (
        await pool.query<{ slot: string; triggers: string; executions: string }>(
          `SELECT payload->'payload'->>'deliveryId' AS slot, count(*) AS triggers, count(DISTINCT payload->>'triggerId') AS executions
               FROM facts WHERE type = 'TriggerCreated' AND payload->'payload'->>'employeeId' = $1
              GROUP BY 1 ORDER BY 1`,
          [employeeId],
        )
      ).rows;

    // the first slot fires; then the leader dies and the standby takes over
    await waitUntil(async () => ((await fired()).length >= 1 ? true : undefined), 'the first slot fired', 90_000);
    const leader = await waitUntil(async () => {
      for (const s of supervisors) {
        const ready = await fetch(s.url('/readyz'))
          .then((r) => r.status === 200)
          .catch(() => false);
        if (ready) return s;
      }
      return undefined;
    }, 'the active supervisor');
    await leader.stop('SIGKILL');
    const standby = supervisors.find((s) => s !== leader) as ServiceProcess;
    await waitUntil(
      async () => ((await fetch(standby.url('/readyz')).then((r) => r.status)) === 200 ? true : undefined),
      'the standby supervisor takes over',
      60_000,
    );

    await waitUntil(
      async () => (Date.now() > firstSlot + 120_000 + 10_000 && (await fired()).length >= 3 ? true : undefined),
      'three slots fired',
      200_000,
    );
    const rows = (await fired()).filter((r) => slots.includes(r.slot));
    expect(rows).toEqual(slots.map((slot) => ({ slot, triggers: '1', executions: '1' })));
    for (const slot of slots) {
      const { rows: t } = await pool.query<{ id: string }>(
        `SELECT payload->>'triggerId' AS id FROM facts WHERE type = 'TriggerCreated' AND payload->'payload'->>'employeeId' = $1
             AND payload->'payload'->>'deliveryId' = $2`,
        [employeeId, slot],
      );
      const triggerId = t[0]?.id ?? '';
      await waitUntil(async () => ((await runStarts(executionIdOf(triggerId))) > 0 ? true : undefined), `the run of ${slot}`);
      expect(await runStarts(executionIdOf(triggerId))).toBe(1);
    }
  }, 420_000);
});
