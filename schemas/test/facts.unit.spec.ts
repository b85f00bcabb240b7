import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { checkAnswer, describeErrors, inputSchemaJson, Limits, parseFact, validate, validateFact, validateOnce } from '../src';
import { EmployeeGraphSpec } from '../src/employee';
import { employeeExample, examples } from './examples';

const clone = <T>(v: T): T => structuredClone(v);
const failure = (value: unknown) => {
  const result = validateFact(value);
  if (result.ok) throw new Error('expected the fact to fail validation');
  return describeErrors(result.errors);
};

/** The fields each example requires (envelope + body), so each can be removed in turn. */
const required: Record<string, string[]> = {
  UIMessage: ['conversationId', 'userId', 'role', 'content'],
  TriggerCreated: ['triggerId', 'triggerType', 'payload'],
  TriggerCreatedCancel: ['triggerId', 'triggerType', 'payload'],
  RunIntent: ['executionId', 'employeeId', 'action', 'trigger'],
  HILPromptOptions: ['executionId', 'promptId', 'kind', 'messages', 'inputSchema', 'options', 'selectionRules'],
  HILPromptQuestions: ['executionId', 'promptId', 'kind', 'messages', 'inputSchema', 'questions'],
  HILResponse: ['executionId', 'promptId', 'kind', 'payload'],
  ExecutionResult: ['executionId', 'status'],
  ExecutionEvent: ['executionId', 'event'],
};
const envelopeFields = ['id', 'orgId', 'ts', 'correlation'];

describe.each(Object.keys(examples))('%s', (name) => {
  const example = examples[name] as unknown as Record<string, unknown>;

  it('a valid example passes', () => {
    const result = validateFact(example);
    expect(result.ok ? 'ok' : describeErrors(result.errors)).toBe('ok');
  });

  it.each([...envelopeFields, ...(required[name] ?? [])])('fails naming /%s when it is missing', (field) => {
    const fact = clone(example);
    delete fact[field];
    expect(failure(fact)).toContain(`/${field}`);
  });

  it('fails naming the field on a wrong type', () => {
    expect(failure({ ...clone(example), orgId: 42 })).toContain('/orgId');
    expect(failure({ ...clone(example), ts: 'yesterday' })).toContain('/ts');
    expect(failure({ ...clone(example), id: 'not-a-uuid' })).toContain('/id');
  });

  it('fails on an oversize string', () => {
    expect(failure({ ...clone(example), orgId: 'x'.repeat(Limits.id + 1) })).toContain('/orgId');
  });

  it('fails on an unknown field (facts are closed)', () => {
    expect(failure({ ...clone(example), extra: 1 })).toMatch(/\//);
  });
});

describe('fact validation messages', () => {
  it('an unknown type fails naming /type', () => {
    expect(failure({ ...clone(examples.UIMessage), type: 'Gossip' })).toContain('/type');
  });

  it('names the field inside a TriggerCreated payload', () => {
    const fact = clone(examples.TriggerCreated) as unknown as { payload: { jobDescription: string } };
    fact.payload.jobDescription = 'x'.repeat(Limits.text + 1);
    expect(failure(fact)).toContain('/payload/jobDescription');
  });

  it('names an unknown trigger type and prompt kind', () => {
    expect(failure({ ...clone(examples.TriggerCreated), triggerType: 'create_world' })).toContain('/triggerType');
    expect(failure({ ...clone(examples.HILPromptOptions), kind: 'essay' })).toContain('/kind');
  });

  it('names the field inside a prompt option and an answer payload', () => {
    const prompt = clone(examples.HILPromptOptions) as unknown as { options: { label: unknown }[] };
    (prompt.options[0] as { label: unknown }).label = 7;
    expect(failure(prompt)).toContain('/options/0/label');
    expect(failure({ ...clone(examples.HILResponse), payload: { selected: 'one' } })).toContain('/payload/selected');
    expect(failure({ ...clone(examples.HILResponse), payload: { action: 'jump' } })).toContain('/payload/action');
  });

  it('bounds arrays', () => {
    const prompt = clone(examples.HILPromptOptions) as unknown as { messages: string[] };
    prompt.messages = Array.from({ length: Limits.messages + 1 }, () => 'm');
    expect(failure(prompt)).toContain('/messages');
  });

  it('parses bytes, rejecting what is not JSON', () => {
    expect(parseFact(Buffer.from(JSON.stringify(examples.RunIntent))).ok).toBe(true);
    const bad = parseFact(Buffer.from('{nope'));
    expect(bad.ok ? '' : describeErrors(bad.errors)).toContain('not JSON');
    expect(parseFact(null).ok).toBe(false);
  });

  it('validates an employee spec, naming a wrong nested field', () => {
    expect(validate(EmployeeGraphSpec, employeeExample).ok).toBe(true);
    const spec = clone(employeeExample) as unknown as { workflows: { steps: { risk: string }[] }[] };
    (spec.workflows[0]?.steps[0] as { risk: string }).risk = 'medium';
    const result = validate(EmployeeGraphSpec, spec);
    expect(result.ok ? '' : describeErrors(result.errors)).toContain('/workflows/0/steps/0/risk');
  });

  it('still says a choice of constants is missing when it is missing', () => {
    const spec = clone(employeeExample) as unknown as { workflows: { steps: { risk?: string }[] }[] };
    const step = spec.workflows[0]!.steps[0]!;
    delete step.risk;
    const result = validate(EmployeeGraphSpec, spec);
    expect(result.ok ? [] : result.errors.map((e) => e.message)).toContain('Expected required property');
  });

  it('names the values a choice of constants allows, instead of "Expected union value"', () => {
    const spec = clone(employeeExample) as unknown as { workflows: { steps: { risk: string }[] }[] };
    (spec.workflows[0]?.steps[0] as { risk: string }).risk = 'medium';
    const result = validate(EmployeeGraphSpec, spec);
    expect(result.ok ? [] : result.errors).toContainEqual({
      path: '/workflows/0/steps/0/risk',
      message: 'Expected one of "low", "high"',
    });
  });
});

describe('prompt input schemas', () => {
  const single = {
    kind: 'options' as const,
    options: [{ id: 'a' }, { id: 'b' }, { id: 'c' }],
    selectionRules: { mode: 'single' as const },
    allowedActions: ['back' as const, 'skip' as const],
  };
  const multi = { ...single, selectionRules: { mode: 'multi' as const, min: 1, max: 2 }, allowedActions: [] };
  const questions = {
    kind: 'questions' as const,
    questions: [{ id: 'q1', required: true }, { id: 'q2' }],
  };

  it('single select takes exactly one known option', () => {
    expect(checkAnswer(single, { selected: ['a'] }).ok).toBe(true);
    expect(checkAnswer(single, { selected: ['a', 'b'] }).ok).toBe(false);
    expect(checkAnswer(single, { selected: ['z'] }).ok).toBe(false);
    expect(checkAnswer(single, { selected: [] }).ok).toBe(false);
  });

  it('multi select honours min and max', () => {
    expect(checkAnswer(multi, { selected: ['a', 'c'] }).ok).toBe(true);
    const tooMany = checkAnswer(multi, { selected: ['a', 'b', 'c'] });
    expect(tooMany.ok ? '' : describeErrors(tooMany.errors)).toContain('/selected');
  });

  it('questions need their required answers and nothing unknown', () => {
    expect(checkAnswer(questions, { answers: { q1: 'yes' } }).ok).toBe(true);
    const missing = checkAnswer(questions, { answers: { q2: 'x' } });
    expect(missing.ok ? '' : describeErrors(missing.errors)).toContain('/answers/q1');
    expect(checkAnswer(questions, { answers: { q1: '' } }).ok).toBe(false);
    expect(checkAnswer(questions, { answers: { q1: 'a', q9: 'b' } }).ok).toBe(false);
  });

  it('a required answer of spaces alone is refused, naming the question; an optional one may be blank', () => {
    const blank = checkAnswer(questions, { answers: { q1: '   \n' } });
    expect(checkAnswer(questions, { answers: { q1: '\u200b \u200b' } }).ok).toBe(false);
    expect(blank.ok ? [] : blank.errors).toEqual([{ path: '/answers/q1', message: expect.stringContaining('blank') }]);
    expect(checkAnswer(questions, { answers: { q1: ' yes ', q2: '  ' } }).ok).toBe(true);
  });

  it('navigation only where the prompt allows it', () => {
    expect(checkAnswer(single, { action: 'skip' }).ok).toBe(true);
    expect(checkAnswer(single, { action: 'restart' }).ok).toBe(false);
    const none = checkAnswer(questions, { action: 'back' });
    expect(none.ok ? '' : describeErrors(none.errors)).toContain('/action');
  });

  it('is carried as plain JSON Schema', () => {
    const json = inputSchemaJson(single) as { anyOf: { properties: Record<string, unknown> }[] };
    expect(JSON.stringify(json)).toContain('"selected"');
    expect(json.anyOf[1]?.properties).toHaveProperty('action');
  });
});

describe('validating against a schema made for one value', () => {
  it('given a schema used once, when a value breaks it, then the same fields and messages are named as by the compiled check', () => {
    const schema = Type.Object(
      {
        answers: Type.Object(
          { q1: Type.String({ minLength: 1 }), q2: Type.Optional(Type.String()) },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    );
    const bad = { answers: { q1: '', q3: 'x' } };
    const once = validateOnce(schema, bad);
    expect(once.ok).toBe(false);
    expect(once).toEqual(validate(schema, bad));
    expect(once.ok ? [] : once.errors.map((e) => e.path)).toEqual(expect.arrayContaining(['/answers/q1', '/answers/q3']));
    expect(validateOnce(schema, { answers: { q1: 'yes' } })).toEqual({ ok: true, value: { answers: { q1: 'yes' } } });
  });
});
