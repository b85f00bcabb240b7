import { END, Send, START, StateGraph } from '@langchain/langgraph';
import { answers, ask, selected } from '../prompt';
import { ConversationState, type ConversationStateT, type DraftFlow, FlowReviewState } from './state';

/** A job description split into its responsibilities, one per sentence. */
export function splitResponsibilities(text: string): DraftFlow[] {
  const sentences = text
    .split(/(?<=[.!?;])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 3)
    .slice(0, 5);
  return (sentences.length > 0 ? sentences : [text.trim()]).map((s, i) => ({ id: `wf-${i + 1}`, text: s.slice(0, 200) }));
}

const starts = [
  { id: 'event', label: 'When something happens in a connected app', recommended: true },
  { id: 'schedule', label: 'On a schedule' },
  { id: 'manual', label: 'When someone asks' },
];

/** One branch of the fan-out: the first workflow is asked how it starts; the others take the default. */
const flowReview = new StateGraph(FlowReviewState)
  .addNode('review_start', (s) => {
    if (!s.ask) return { start: 'event' };
    const answer = ask({
      kind: 'options',
      messages: [`How should "${s.flow.text}" start?`],
      options: starts,
      selectionRules: { mode: 'single' },
      allowedActions: ['skip'],
      progress: 30,
    });
    return { start: selected(answer)[0] ?? 'event' };
  })
  .addEdge(START, 'review_start')
  .addEdge('review_start', END)
  .compile();

const MAX_ROUNDS = 3;

/**
 * The conversation graph of the end-to-end journey: analyse → fan-out review per workflow (a prompt
 * inside the `Send` subgraph) → a questions prompt → approve or revise (revise loops back) → done.
 * It exercises every mechanism the runner relies on; the creation graph uses the same ones.
 */
export function buildConversationGraph() {
  return new StateGraph(ConversationState)
    .addNode('analyse', (s) => ({
      flows: splitResponsibilities(s.jobDescription),
      phase: 'analysis',
      progress: 10,
    }))
    .addNode(
      'review_flow',
      async (branch: { flow: DraftFlow; ask: boolean }) => {
        const out = await flowReview.invoke({ flow: branch.flow, ask: branch.ask });
        return { flows: [{ ...branch.flow, start: out.start }], phase: 'matching', progress: 40 };
      },
      { input: FlowReviewState },
    )
    .addNode('ask_details', (s) => {
      const answer = ask({
        kind: 'questions',
        messages: [`A few details about ${s.name || 'this employee'} (round ${s.rounds + 1}).`],
        questions: [
          {
            id: 'name',
            text: 'What should the employee be called?',
            exampleAnswer: s.name || 'Operations Assistant',
            required: true,
          },
          { id: 'approver', text: 'Who approves its risky steps?', exampleAnswer: 'the team lead' },
        ],
        progress: 60,
      });
      const given = answers(answer);
      return { details: given, name: given.name ?? s.name, phase: 'refinement', progress: 70, rounds: s.rounds + 1 };
    })
    .addNode('confirm', (s) => {
      if (s.rounds >= MAX_ROUNDS) return { approved: true };
      const answer = ask({
        kind: 'options',
        messages: [`${s.name} will handle ${s.flows.length} workflow(s). Approve?`],
        options: [
          { id: 'approve', label: 'Approve', recommended: true },
          { id: 'revise', label: 'Revise the details' },
        ],
        selectionRules: { mode: 'single' },
        progress: 90,
      });
      return { approved: selected(answer)[0] !== 'revise', phase: 'validation' };
    })
    .addNode('finish', () => ({ phase: 'done', progress: 100 }))
    .addEdge(START, 'analyse')
    .addConditionalEdges(
      'analyse',
      (s: ConversationStateT) => s.flows.map((flow, i) => new Send('review_flow', { flow, ask: i === 0 })),
      ['review_flow'],
    )
    .addEdge('review_flow', 'ask_details')
    .addEdge('ask_details', 'confirm')
    .addConditionalEdges('confirm', (s: ConversationStateT) => (s.approved ? 'finish' : 'ask_details'), ['finish', 'ask_details'])
    .addEdge('finish', END);
}

/** The summary the runner reports when the conversation graph ends. */
export const conversationSummary = (s: ConversationStateT): string =>
  `${s.name}: ${s.flows.map((f) => `${f.text} (starts: ${f.start ?? 'event'})`).join('; ')}`;
