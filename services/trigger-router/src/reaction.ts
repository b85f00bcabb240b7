import { makeFact } from '@hireloop/fact-stream';
import { derivedId } from '@hireloop/platform';
import type { TriggerCreated, UIMessage } from '@hireloop/schemas';
import { routeMessage } from './intent';

/**
 * What the router publishes for one chat line: a `TriggerCreated` for a request to create an
 * employee, an assistant reply otherwise, nothing for hireloop's own (assistant) lines. Pure: ids
 * are derived from the message's id, so a redelivered message yields the very same fact id and
 * downstream consumers drop the repeat.
 */
export function reactTo(message: UIMessage, now: Date): TriggerCreated | UIMessage | undefined {
  if (message.role !== 'user') return undefined;
  const { conversationId, userId } = message;
  const clock = { now: () => now };
  const route = routeMessage(message.content);
  switch (route.action) {
    case 'create_graph': {
      const triggerId = derivedId(message.id, 'trigger');
      return makeFact(
        'TriggerCreated',
        { orgId: message.orgId, correlation: { conversationId, userId, triggerId }, causationId: message.id },
        {
          triggerId,
          triggerType: 'create_graph',
          payload: { jobDescription: route.jobDescription, ...(route.name ? { name: route.name } : {}) },
          source: 'chat',
        },
        { ids: { newId: () => triggerId }, clock },
      );
    }
    case 'reply': {
      const id = derivedId(message.id, 'reply');
      return makeFact(
        'UIMessage',
        { orgId: message.orgId, correlation: { conversationId, userId }, causationId: message.id },
        { conversationId, userId, role: 'assistant', content: route.text },
        { ids: { newId: () => id }, clock },
      );
    }
    default: {
      const unhandled: never = route;
      throw new Error(`unhandled route ${JSON.stringify(unhandled)}`);
    }
  }
}
