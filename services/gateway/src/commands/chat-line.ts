/**
 * What happens when a chat line arrives on the socket: it is the user's turn in the conversation,
 * published as `UIMessage{role:'user'}` for the trigger-router — unless the conversation is waiting
 * on a prompt with exactly one question, in which case the line is that question's answer and goes
 * through the same checks as any answer (`respond.ts`), as `HILResponse`, never to the router.
 */
import { makeFact } from '@hireloop/fact-stream';
import type { Principal } from '@hireloop/platform';
import type { HILResponse, UIMessage } from '@hireloop/schemas';
import type { ExecutionState } from './access';
import type { CommandDeps, Minting } from './deps';
import { decideRespond } from './respond';

export interface ChatLine {
  conversationId: string;
  text: string;
}

/** The one question a pending prompt asks, when it asks exactly one. */
export function singleQuestion(execution: ExecutionState | null): { promptId: string; questionId: string } | undefined {
  const prompt = execution?.currentPrompt;
  if (prompt?.kind !== 'questions' || prompt.questions.length !== 1) return undefined;
  const question = prompt.questions[0];
  return question ? { promptId: prompt.promptId, questionId: question.id } : undefined;
}

/** Decides what a line becomes, given the caller's execution waiting in the conversation (if any). Pure. */
export function decideChatLine(
  waiting: ExecutionState | null,
  principal: Principal,
  line: ChatLine,
  minting: Minting,
): UIMessage | HILResponse {
  const single = singleQuestion(waiting);
  if (waiting && single) {
    return decideRespond(
      waiting,
      principal,
      {
        executionId: waiting.executionId,
        promptId: single.promptId,
        kind: 'questions',
        payload: { answers: { [single.questionId]: line.text } },
        conversationId: line.conversationId,
      },
      minting,
    );
  }
  return makeFact(
    'UIMessage',
    { orgId: principal.orgId, correlation: { conversationId: line.conversationId, userId: principal.userId } },
    { conversationId: line.conversationId, userId: principal.userId, role: 'user', content: line.text },
    minting,
  );
}

export async function chatLine(
  deps: CommandDeps,
  principal: Principal,
  line: ChatLine,
  waiting: ExecutionState | null,
): Promise<UIMessage | HILResponse> {
  const fact = decideChatLine(waiting, principal, line, deps);
  await deps.publisher.publish(fact);
  return fact;
}
