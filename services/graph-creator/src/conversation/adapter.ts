import type { CreateGraphPayload } from '@hireloop/schemas';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import type { Static } from '@sinclair/typebox';
import type { GraphAdapter, RunnableGraph } from '../runner';
import { buildConversationGraph, conversationSummary } from './graph';
import type { ConversationStateT } from './state';

export function conversationAdapter(checkpointer: BaseCheckpointSaver): GraphAdapter<ConversationStateT> {
  const graph = buildConversationGraph().compile({ checkpointer }) as unknown as RunnableGraph;
  return {
    graph,
    input: (intent) => {
      const payload = intent.trigger.payload as Static<typeof CreateGraphPayload>;
      return { jobDescription: payload.jobDescription, name: payload.name ?? '' };
    },
    outcome: (values) => ({ status: 'completed', output: { summary: conversationSummary(values) } }),
    status: (values) => ({ phase: values.phase, progress: values.progress }),
  };
}
