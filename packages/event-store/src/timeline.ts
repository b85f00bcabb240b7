import { type AnyFact, clipped, SupervisorEventKinds } from '@hireloop/schemas';

const SUPERVISOR_EVENTS: ReadonlySet<string> = new Set(SupervisorEventKinds);

const unreachable = (fact: never): never => {
  throw new Error(`unhandled fact type ${(fact as { type?: unknown }).type}`);
};

const clip = (text: string, max = 80): string => clipped(text.replace(/\s+/g, ' ').trim(), max);

/** Who caused a fact: the user for what a person did, otherwise the service that produces that fact. */
export function whoOf(fact: AnyFact): string {
  switch (fact.type) {
    case 'UIMessage':
      return fact.role === 'user' ? fact.userId : 'hireloop';
    case 'TriggerCreated':
      return fact.source === 'supervisor' ? 'supervisor' : (fact.correlation.userId ?? fact.source ?? 'unknown');
    case 'RunIntent':
      return 'supervisor';
    case 'EmployeeActivated':
    case 'EmployeeDeactivated':
      return fact.correlation.userId ?? 'unknown';
    case 'PolicyChanged':
    case 'ConnectionsChanged':
      return fact.changedBy;
    case 'HILResponse':
      return fact.correlation.userId ?? 'unknown';
    case 'ExecutionEvent':
      return SUPERVISOR_EVENTS.has(fact.event) ? 'supervisor' : 'graph-creator';
    case 'HILPrompt':
    case 'ExecutionResult':
      return 'graph-creator';
    default:
      return unreachable(fact);
  }
}

/** One line saying what a fact says, for the audit timeline. */
export function summarize(fact: AnyFact): string {
  switch (fact.type) {
    case 'UIMessage':
      return `${fact.role}: ${clip(fact.content)}`;
    case 'TriggerCreated':
      switch (fact.triggerType) {
        case 'create_graph':
          return `create_graph${fact.payload.name ? ` "${clip(fact.payload.name, 40)}"` : ''}: ${clip(fact.payload.jobDescription, 60)}`;
        case 'cancel_execution':
          return `cancel_execution ${fact.payload.executionId}${fact.payload.reason ? ` (${fact.payload.reason})` : ''}`;
        case 'employee_trigger':
          return `employee_trigger ${fact.payload.employeeId} v${fact.payload.version} workflow ${fact.payload.workflowId}`;
        default:
          return unreachable(fact);
      }
    case 'RunIntent':
      return fact.action === 'start'
        ? `start employee ${fact.employeeId} (trigger ${fact.trigger.triggerId})`
        : `cancel${fact.reason ? ` (${fact.reason})` : ''}`;
    case 'HILPrompt': {
      const count = fact.kind === 'options' ? `${fact.options.length} options` : `${fact.questions.length} questions`;
      return `${fact.kind} prompt ${fact.promptId} (${count}): ${clip(fact.messages[0] ?? '', 60)}`;
    }
    case 'HILResponse': {
      const p = fact.payload;
      const answer =
        'selected' in p
          ? `selected ${p.selected.join(', ')}`
          : 'answers' in p
            ? `answered ${Object.keys(p.answers).join(', ')}`
            : p.action;
      return `answer to ${fact.promptId}: ${clip(answer, 60)}`;
    }
    case 'ExecutionEvent': {
      // a step's event names the step, and a refusal or failure its reason and what was said of it
      const said = fact.detail ?? fact.effect?.error?.message;
      const parts = [
        fact.event,
        fact.stepId && `step ${fact.stepId}`,
        fact.effect && fact.effect.capabilityId,
        fact.reason && fact.reason !== fact.event && `(${fact.reason})`,
        fact.phase && `phase ${fact.phase}`,
        fact.node && `node ${fact.node}`,
        fact.progress !== undefined && `${fact.progress}%`,
        fact.position !== undefined && `position ${fact.position}`,
        said && clip(said, 80),
      ];
      return parts.filter(Boolean).join(', ');
    }
    case 'EmployeeActivated':
      return `activated employee ${fact.employeeId} v${fact.version}`;
    case 'EmployeeDeactivated':
      return `deactivated employee ${fact.employeeId} v${fact.version}`;
    case 'PolicyChanged': {
      const rules = Object.keys(fact.policy);
      return `policy set: ${rules.length > 0 ? rules.join(', ') : 'no rules'}`;
    }
    case 'ConnectionsChanged':
      return `connections set (v${fact.version}): ${fact.providers.length > 0 ? clip(fact.providers.join(', '), 80) : 'none'}`;
    case 'ExecutionResult': {
      const employee = fact.output?.employee;
      if (fact.status === 'completed') return employee ? `completed: employee "${clip(employee.name, 40)}"` : 'completed';
      return fact.error ? `${fact.status}: ${fact.error.code} ${clip(fact.error.message, 60)}` : fact.status;
    }
    default:
      return unreachable(fact);
  }
}
