import { randomUUID } from 'node:crypto';
import { waitUntil } from '@hireloop/platform/testing';
import type { HilPromptFrame } from '@hireloop/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedAnswer } from '../services/graph-creator/src/answerer';
import { chat, Stack, token } from './stack';

/**
 * The worker on the conversation graph, every service its own process: its prompts come from a
 * `Send` fan-out subgraph (options), a plain node (questions) and a review that loops back on revise.
 */
describe('the conversation graph through every service', () => {
  const stack = new Stack({ GRAPH_CREATOR_GRAPH: 'conversation' });
  let chatUrl: string;
  beforeAll(async () => {
    const services = await stack.up(['event-store', 'trigger-router', 'supervisor', 'graph-creator', 'gateway']);
    chatUrl = `ws://127.0.0.1:${services.gateway.port}/v1/chat`;
  }, 180_000);
  afterAll(() => stack.down());

  it('asks inside the fan-out, then questions, loops back on revise, and completes', async () => {
    const conversationId = randomUUID();
    const client = await chat(chatUrl, token('fay'), conversationId);
    const { frames } = client;
    client.send({
      conversationId,
      text: 'Hire an assistant: when a deal closes, send a welcome email. Every Monday, post a pipeline report.',
    });

    const kinds: string[] = [];
    let revised = false;
    for (let n = 0; n < 10; n++) {
      const next = await waitUntil(
        async () =>
          frames.find(
            (f) => (f.type === 'hil_prompt' && !kinds.some((k) => k.endsWith(f.promptId))) || f.type === 'execution_result',
          ),
        `prompt ${n + 1}`,
      );
      if (next.type === 'execution_result') {
        expect(next.status).toBe('completed');
        break;
      }
      const prompt = next as HilPromptFrame;
      kinds.push(`${prompt.kind}:${prompt.promptId}`);
      const isReview = prompt.kind === 'options' && prompt.options.some((o) => o.id === 'revise');
      const payload = isReview && !revised ? { selected: ['revise'] } : scriptedAnswer(prompt);
      if (isReview) revised = true;
      client.answer(prompt, payload);
    }
    // fan-out options, questions, review (revise), questions again, review (approve)
    expect(kinds.map((k) => k.split(':')[0])).toEqual(['options', 'questions', 'options', 'questions', 'options']);
    expect(frames.some((f) => f.type === 'execution_result' && f.status === 'completed')).toBe(true);
    client.socket.close();
  });
});
