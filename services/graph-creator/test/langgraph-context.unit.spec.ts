/**
 * hireloop patches @langchain/core (patches/@langchain__core@1.4.0.patch): a run nobody traces carries
 * its config to the code it calls in a plain placeholder instead of a langsmith RunTree built for every
 * node and channel write. What LangGraph reads from that context must still be there.
 */
import { AsyncLocalStorageProviderSingleton } from '@langchain/core/singletons';
import { Annotation, Command, getConfig, interrupt, MemorySaver, StateGraph } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';

const State = Annotation.Root({ asked: Annotation<string>, answer: Annotation<string> });

/** What a node sees of its async context. */
interface Seen {
  threadId: unknown;
  tracingEnabled: unknown;
  runTree: boolean;
}

const isRunTree = (x: unknown): boolean =>
  typeof x === 'object' && x !== null && typeof (x as { createChild?: unknown }).createChild === 'function';

function graph(seen: Seen[]) {
  return new StateGraph(State)
    .addNode('ask', (state) => {
      const store = AsyncLocalStorageProviderSingleton.getInstance().getStore() as { tracingEnabled?: unknown } | undefined;
      seen.push({
        threadId: getConfig().configurable?.thread_id,
        tracingEnabled: store?.tracingEnabled,
        runTree: isRunTree(store),
      });
      return { answer: interrupt<string, string>(state.asked) };
    })
    .addEdge('__start__', 'ask')
    .addEdge('ask', '__end__')
    .compile({ checkpointer: new MemorySaver() });
}

describe('the async context of an untraced LangGraph run (patched @langchain/core)', () => {
  it('given a run with no tracer, when a node reads its context, then it finds its own config in a placeholder that says tracing is off, not a RunTree', async () => {
    const seen: Seen[] = [];
    await graph(seen).invoke({ asked: 'which channel?' }, { configurable: { thread_id: 'ctx-1' } });
    expect(seen).toEqual([{ threadId: 'ctx-1', tracingEnabled: false, runTree: false }]);
  });

  it('given a node paused by interrupt, when it is resumed, then the answer reaches it through the same context', async () => {
    const seen: Seen[] = [];
    const app = graph(seen);
    const config = { configurable: { thread_id: 'ctx-2' } };
    const paused = await app.invoke({ asked: 'which channel?' }, config);
    expect((paused as { __interrupt__?: Array<{ value: unknown }> }).__interrupt__?.[0]?.value).toBe('which channel?');
    const done = await app.invoke(new Command({ resume: '#onboarding' }), config);
    expect(done.answer).toBe('#onboarding');
    expect(seen.map((s) => s.threadId)).toEqual(['ctx-2', 'ctx-2']);
  });
});
