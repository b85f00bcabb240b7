import type { AnyFact, EmployeeGraphSpec } from '../src';

/** A valid example of every fact, for schema tests and as fixtures elsewhere. */
const envelope = (type: AnyFact['type'], n: number) => ({
  type,
  id: `0190f3a2-7b1c-7000-8000-${String(n).padStart(12, '0')}`,
  orgId: 'acme',
  ts: '2026-11-22T10:00:00.000Z',
  correlation: { conversationId: 'conv-1', userId: 'u-1', executionId: 'exec-1' },
});

export const employeeExample: EmployeeGraphSpec = {
  employeeId: '0190f3a2-7b1c-7000-8000-0000000000ee',
  orgId: 'acme',
  name: 'Customer Onboarding Specialist',
  version: 1,
  jobDescription: 'When a deal closes, send a welcome email.',
  workflows: [
    {
      id: 'wf-1',
      name: 'Welcome new customers',
      description: 'When a deal is won, welcome the customer.',
      trigger: { triggerId: 'hubspot.deal_stage_changed', params: { stage: 'Closed Won' } },
      steps: [
        {
          id: 's-1',
          capabilityId: 'gmail.send_email',
          purpose: 'welcome email',
          inputs: { to: { from: 'trigger', path: 'contact.email' } },
          risk: 'high',
          dependsOn: [],
        },
      ],
      behaviourPrompt: 'Be warm and brief.',
    },
  ],
  gaps: [
    {
      id: 'g-1',
      category: 'missing_integration',
      providerId: 'docusign',
      workflowId: 'wf-1',
      blocking: false,
      question: 'Connect DocuSign?',
      resolution: 'defaulted',
    },
  ],
  compiled: {
    nodes: [{ id: 's-1', kind: 'tool', capabilityId: 'gmail.send_email', reads: ['deal'], writes: ['emailId'] }],
    edges: [
      { from: '__start__', to: 's-1' },
      { from: 's-1', to: '__end__' },
    ],
    stateSchema: { type: 'object' },
    tools: ['gmail.send_email'],
    budgets: { maxSteps: 20, maxToolCalls: 10, timeoutSeconds: 600 },
    interruptPoints: ['s-1'],
  },
  validation: { passed: true, checks: [{ id: 'capabilities_exist', passed: true, detail: 'ok' }] },
  diagram: 'graph TD\n  start --> s1',
  history: { iterations: 1, promptsAsked: 2, routingTrace: [] },
};

export const examples: Record<string, AnyFact> = {
  UIMessage: {
    ...envelope('UIMessage', 1),
    conversationId: 'conv-1',
    userId: 'u-1',
    role: 'user',
    content: 'Hire a recruiter',
  } as AnyFact,
  TriggerCreated: {
    ...envelope('TriggerCreated', 2),
    triggerId: 'trg-1',
    triggerType: 'create_graph',
    payload: { jobDescription: 'Recruiting coordinator: schedule interviews.', name: 'Recruiter' },
    source: 'chat',
  } as AnyFact,
  TriggerCreatedCancel: {
    ...envelope('TriggerCreated', 3),
    triggerId: 'trg-2',
    triggerType: 'cancel_execution',
    payload: { executionId: 'exec-1', reason: 'requested' },
  } as AnyFact,
  RunIntent: {
    ...envelope('RunIntent', 4),
    executionId: 'exec-1',
    employeeId: 'graph-creator',
    action: 'start',
    trigger: { triggerId: 'trg-1', triggerType: 'create_graph', payload: { jobDescription: 'Recruiting coordinator' } },
  } as AnyFact,
  HILPromptOptions: {
    ...envelope('HILPrompt', 5),
    executionId: 'exec-1',
    promptId: 'p-1',
    kind: 'options',
    messages: ['Which calendar?'],
    inputSchema: { type: 'object' },
    options: [
      { id: 'google-calendar', label: 'Google Calendar', recommended: true },
      { id: 'connect', label: 'Connect another' },
    ],
    selectionRules: { mode: 'single' },
    allowedActions: ['back', 'skip'],
    progress: 40,
  } as AnyFact,
  HILPromptQuestions: {
    ...envelope('HILPrompt', 6),
    executionId: 'exec-1',
    promptId: 'p-2',
    kind: 'questions',
    messages: ['A few details'],
    inputSchema: { type: 'object' },
    questions: [{ id: 'q1', text: 'Which Slack channel?', exampleAnswer: '#onboarding', required: true }],
  } as AnyFact,
  HILResponse: {
    ...envelope('HILResponse', 7),
    executionId: 'exec-1',
    promptId: 'p-1',
    kind: 'options',
    payload: { selected: ['google-calendar'] },
  } as AnyFact,
  ExecutionResult: {
    ...envelope('ExecutionResult', 8),
    executionId: 'exec-1',
    status: 'completed',
    output: { employee: employeeExample },
  } as AnyFact,
  ExecutionEvent: {
    ...envelope('ExecutionEvent', 9),
    executionId: 'exec-1',
    event: 'phase',
    phase: 'analysis',
    progress: 10,
  } as AnyFact,
};
