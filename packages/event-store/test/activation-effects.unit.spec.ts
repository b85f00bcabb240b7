import type { AnyFact, FactType } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import {
  type EmployeeActivation,
  type ExecutionEffect,
  employeeActivations,
  executionEffects,
  fold,
  type Projection,
} from '../src';
import { employeeFacts, steppingClock } from './builders';

/** given these facts (in this order, seq 1, 2, …), the state of `key` */
function given<S, T extends FactType>(projection: Projection<S, T>, facts: AnyFact[], key: string): S | null {
  const states = new Map<string, S>();
  fold(
    projection,
    states,
    facts.map((fact, i) => ({ fact, seq: i + 1 })),
  );
  return states.get(key) ?? null;
}

describe('employee_activations projection', () => {
  const employeeId = 'emp-1';
  const e = employeeFacts('acme', employeeId, steppingClock());

  it('an activation makes the employee active with its activation id and workflows', () => {
    const activated = e.activated([
      { workflowId: 'wf-1', triggerId: 'zendesk.new_ticket', status: 'on' },
      {
        workflowId: 'wf-2',
        triggerId: 'gmail.new_email',
        status: 'off',
        reason: 'waiting for gmail to be connected for the org',
      },
    ]);
    expect(given(employeeActivations, [activated], employeeId)).toEqual({
      employeeId,
      orgId: 'acme',
      version: 1,
      status: 'active',
      activationId: activated.activationId,
      workflows: activated.workflows,
      updatedAt: activated.ts,
      lastSeq: 1,
    } satisfies EmployeeActivation);
  });

  it('a deactivation makes it inactive and keeps the last activation for the record', () => {
    const activated = e.activated();
    const deactivated = e.deactivated();
    expect(given(employeeActivations, [activated, deactivated], employeeId)).toMatchObject({
      status: 'inactive',
      activationId: activated.activationId,
      workflows: activated.workflows,
      updatedAt: deactivated.ts,
      lastSeq: 2,
    });
  });

  it('activating again replaces the activation id (the webhook secrets rotate)', () => {
    const first = e.activated();
    const second = e.activated();
    const state = given(employeeActivations, [first, e.deactivated(), second], employeeId);
    expect(state).toMatchObject({ status: 'active', activationId: second.activationId, lastSeq: 3 });
  });

  it('a fact of another org never touches the employee', () => {
    const activated = e.activated();
    const foreign = employeeFacts('evil-corp', employeeId).deactivated();
    expect(given(employeeActivations, [activated, foreign], employeeId)).toMatchObject({ status: 'active', orgId: 'acme' });
  });

  it('a deactivation of a never-activated employee records it inactive with no activation', () => {
    expect(given(employeeActivations, [e.deactivated()], employeeId)).toMatchObject({
      status: 'inactive',
      activationId: null,
      workflows: [],
    });
  });
});

describe('execution_effects projection', () => {
  const executionId = 'run-1';
  const e = employeeFacts('acme', 'emp-1', steppingClock());
  const key = `${executionId}/s1/abc123`;

  it('a tool event with an effect records it under its idempotency key', () => {
    const event = e.effect(executionId, 's1', 'succeeded', { ok: true });
    const state = given(executionEffects, [event], key) as ExecutionEffect;
    expect(state).toEqual({
      ...event.effect,
      executionId,
      orgId: 'acme',
      firstSeq: 1,
      lastSeq: 1,
    });
  });

  it('the latest record of a key wins by seq, and the first seq stays (the order the calls began)', () => {
    const failed = e.effect(executionId, 's1', 'failed');
    const succeeded = e.effect(executionId, 's1', 'succeeded', { ok: true });
    const state = given(executionEffects, [failed, succeeded], key) as ExecutionEffect;
    expect(state).toMatchObject({ status: 'succeeded', output: { ok: true }, firstSeq: 1, lastSeq: 2 });
    expect(state.error).toBeUndefined();
  });

  it('an event without an effect, or of another org, changes nothing', () => {
    const first = e.effect(executionId, 's1', 'succeeded');
    const foreign = employeeFacts('evil-corp', 'emp-1').effect(executionId, 's1', 'failed');
    const { effect: _effect, ...bare } = e.effect(executionId, 's1', 'failed');
    const state = given(executionEffects, [first, bare as AnyFact, foreign], key);
    expect(state).toMatchObject({ status: 'succeeded', lastSeq: 1 });
  });

  it('a record folded again (replay over the same seq) changes nothing', () => {
    const event = e.effect(executionId, 's1', 'succeeded');
    const states = new Map<string, ExecutionEffect>();
    fold(executionEffects, states, [{ fact: event, seq: 5 }]);
    const changed = fold(executionEffects, states, [{ fact: event, seq: 5 }]);
    expect(changed.size).toBe(0);
  });
});
