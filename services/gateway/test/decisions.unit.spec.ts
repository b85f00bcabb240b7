import { HireloopError } from '@hireloop/platform';
import { validateFact } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import type { ExecutionState } from '../src/commands/access';
import { decideCancel } from '../src/commands/cancel';
import { decideChatLine } from '../src/commands/chat-line';
import { decideCreateGraph } from '../src/commands/create-graph';
import { decideRespond, mayBeLagging } from '../src/commands/respond';
import { optionsPrompt, questionsPrompt } from './fixtures';

const alice = { userId: 'alice', orgId: 'acme' };
let n = 0;
const minting = {
  ids: { newId: () => `0190a1b2-c3d4-7e5f-8a9b-${String(++n).padStart(12, '0')}` },
  clock: { now: () => new Date('2026-11-22T10:00:00.000Z') },
};

const waiting = (prompt = questionsPrompt('exec-1', alice, 'conv-1')): ExecutionState => ({
  executionId: 'exec-1',
  orgId: 'acme',
  ownerUserId: 'alice',
  conversationId: 'conv-1',
  status: 'waiting',
  currentPrompt: prompt,
});

const refusal = (run: () => unknown): { code: string; field: unknown } => {
  try {
    run();
  } catch (error) {
    if (error instanceof HireloopError) return { code: error.code, field: error.details?.field };
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('decideRespond: given an execution, when an answer arrives', () => {
  it('then a pending prompt answered validly becomes a valid HILResponse of the prompt’s kind', () => {
    const execution = waiting();
    const fact = decideRespond(
      execution,
      alice,
      { executionId: 'exec-1', promptId: execution.currentPrompt!.promptId, payload: { answers: { q1: 'Ops' } } },
      minting,
    );
    expect(validateFact(fact).ok).toBe(true);
    expect(fact).toMatchObject({
      kind: 'questions',
      orgId: 'acme',
      correlation: { userId: 'alice', conversationId: 'conv-1', executionId: 'exec-1' },
    });
  });

  it('then a missing execution, another user’s and another org’s are the same NOT_FOUND', () => {
    const execution = waiting();
    const command = { executionId: 'exec-1', promptId: execution.currentPrompt!.promptId, payload: { answers: { q1: 'x' } } };
    expect(refusal(() => decideRespond(null, alice, command, minting)).code).toBe('NOT_FOUND');
    expect(refusal(() => decideRespond(execution, { userId: 'bob', orgId: 'acme' }, command, minting)).code).toBe('NOT_FOUND');
    expect(refusal(() => decideRespond(execution, { userId: 'alice', orgId: 'other' }, command, minting)).code).toBe('NOT_FOUND');
  });

  it('then a frame naming another conversation than the execution’s is NOT_FOUND', () => {
    const execution = waiting();
    const command = {
      executionId: 'exec-1',
      promptId: execution.currentPrompt!.promptId,
      payload: {},
      conversationId: 'elsewhere',
    };
    expect(refusal(() => decideRespond(execution, alice, command, minting)).code).toBe('NOT_FOUND');
  });

  it('then a prompt that is not the pending one is CONFLICT on /promptId', () => {
    expect(
      refusal(() => decideRespond(waiting(), alice, { executionId: 'exec-1', promptId: 'old', payload: {} }, minting)),
    ).toEqual({
      code: 'CONFLICT',
      field: '/promptId',
    });
    const done = { ...waiting(), status: 'completed', currentPrompt: null };
    expect(refusal(() => decideRespond(done, alice, { executionId: 'exec-1', promptId: 'p', payload: {} }, minting)).code).toBe(
      'CONFLICT',
    );
  });

  it('then a payload that breaks the input schema is VALIDATION_FAILED naming the field under /payload', () => {
    const prompt = optionsPrompt('exec-1', alice, 'conv-1');
    const execution = waiting(prompt);
    const answer = (payload: unknown) =>
      refusal(() => decideRespond(execution, alice, { executionId: 'exec-1', promptId: prompt.promptId, payload }, minting));
    expect(answer({ selected: ['gmail', 'slack'] })).toEqual({ code: 'VALIDATION_FAILED', field: '/payload/selected' });
    expect(answer({ action: 'restart' })).toEqual({ code: 'VALIDATION_FAILED', field: '/payload/action' });
    expect(answer('yes').field).toBe('/payload');
  });
});

describe('decideChatLine: given the conversation’s waiting execution, when a line arrives', () => {
  it('then with a one-question prompt the line is that question’s answer', () => {
    const fact = decideChatLine(waiting(), alice, { conversationId: 'conv-1', text: 'Ops' }, minting);
    expect(fact).toMatchObject({ type: 'HILResponse', payload: { answers: { q1: 'Ops' } } });
  });

  it('then with nothing waiting, or an options prompt, the line is a UIMessage for the router', () => {
    expect(decideChatLine(null, alice, { conversationId: 'conv-1', text: 'hi' }, minting)).toMatchObject({
      type: 'UIMessage',
      role: 'user',
      content: 'hi',
      conversationId: 'conv-1',
      userId: 'alice',
    });
    const options = waiting(optionsPrompt('exec-1', alice, 'conv-1'));
    expect(decideChatLine(options, alice, { conversationId: 'conv-1', text: 'slack' }, minting).type).toBe('UIMessage');
  });
});

describe('decideCancel and decideCreateGraph', () => {
  it('cancel: the caller’s running execution becomes a valid cancel_execution trigger; an ended one is CONFLICT', () => {
    const fact = decideCancel({ ...waiting(), status: 'running' }, alice, { executionId: 'exec-1', source: 'http' }, minting);
    expect(validateFact(fact).ok).toBe(true);
    expect(fact).toMatchObject({ triggerType: 'cancel_execution', payload: { executionId: 'exec-1', reason: 'requested' } });
    expect(
      refusal(() => decideCancel({ ...waiting(), status: 'failed' }, alice, { executionId: 'exec-1', source: 'chat' }, minting))
        .code,
    ).toBe('CONFLICT');
  });

  it('create_graph: FORBIDDEN for another org in the body, NOT_FOUND for another user’s conversation', () => {
    const body = { type: 'create_graph' as const, payload: { jobDescription: 'x' } };
    expect(refusal(() => decideCreateGraph({ ...body, orgId: 'other' }, alice, [], minting))).toEqual({
      code: 'FORBIDDEN',
      field: '/orgId',
    });
    expect(
      refusal(() => decideCreateGraph({ ...body, conversationId: 'c' }, alice, [{ orgId: 'acme', ownerUserId: 'bob' }], minting))
        .code,
    ).toBe('NOT_FOUND');
    const fact = decideCreateGraph({ ...body, orgId: 'acme' }, alice, [], minting);
    expect(validateFact(fact).ok).toBe(true);
    expect(fact.correlation.conversationId).toBeDefined();
  });

  it('create_graph: VALIDATION_FAILED naming /payload/jobDescription when it holds only blanks', () => {
    const blank = { type: 'create_graph' as const, payload: { jobDescription: ' \n\t ' } };
    expect(refusal(() => decideCreateGraph(blank, alice, [], minting))).toEqual({
      code: 'VALIDATION_FAILED',
      field: '/payload/jobDescription',
    });
  });

  it.each([['\u200b'], ['\u200b\u2060\u200d'], [' \ufeff\u200c ']])(
    'create_graph: VALIDATION_FAILED naming /payload/jobDescription when it holds only zero-width characters (%j)',
    (jobDescription) => {
      const blank = { type: 'create_graph' as const, payload: { jobDescription } };
      expect(refusal(() => decideCreateGraph(blank, alice, [], minting))).toEqual({
        code: 'VALIDATION_FAILED',
        field: '/payload/jobDescription',
      });
    },
  );

  it('create_graph: a description with a zero-width character inside words is taken', () => {
    const said = { type: 'create_graph' as const, payload: { jobDescription: 'Answer\u200b Zendesk tickets' } };
    expect(decideCreateGraph(said, alice, [], minting).payload).toMatchObject({ jobDescription: 'Answer\u200b Zendesk tickets' });
  });

  it('create_graph: VALIDATION_FAILED naming /payload/name when the name holds only blanks', () => {
    const blank = { type: 'create_graph' as const, payload: { jobDescription: 'Answer Zendesk tickets', name: '   ' } };
    expect(refusal(() => decideCreateGraph(blank, alice, [], minting))).toEqual({
      code: 'VALIDATION_FAILED',
      field: '/payload/name',
    });
  });
});

describe('mayBeLagging: which refusals of an answer are re-decided while the projection catches up', () => {
  const notFound = new HireloopError('NOT_FOUND', 'execution exec-1 not found');
  const conflict = new HireloopError('CONFLICT', 'prompt p is not pending');

  it('given no row of the execution, when refused as not found, then it may be the projection lagging', () => {
    expect(mayBeLagging(notFound, null)).toBe(true);
  });

  it('given a row naming another owner, when refused as not found, then the 404 stands at once', () => {
    expect(mayBeLagging(notFound, waiting())).toBe(false);
  });

  it('given a row with no owner or employee yet (begun from a prompt before its RunIntent), then it may be lagging', () => {
    expect(mayBeLagging(notFound, { ...waiting(), ownerUserId: null })).toBe(true);
    expect(mayBeLagging(notFound, { ...waiting(), ownerUserId: null, employeeId: 'emp-1' })).toBe(false);
  });

  it('given a prompt not pending, then it may be lagging; any other refusal stands', () => {
    expect(mayBeLagging(conflict, waiting())).toBe(true);
    expect(mayBeLagging(new HireloopError('VALIDATION_FAILED', '/kind'), null)).toBe(false);
    expect(mayBeLagging(new Error('boom'), null)).toBe(false);
  });
});
