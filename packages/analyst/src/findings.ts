import { clipped } from '@hireloop/schemas';
import { COGNITIVE_VERBS, ORG_CONTEXT, VAGUE_OBJECTS, VAGUE_VERBS } from './lexicon';
import { parseSchedule } from './schedule';
import { channelsIn, contentWords, namesAction, parseClause, providersIn } from './text';
import type { CapabilityMatch, DraftStep, DraftWorkflow, Finding } from './types';

// What gap identification should ask about: tasks too vague to carry out, knowledge only the
// organisation has, and workflows whose start is unclear.

const clip = (s: string, n = 500): string => clipped(s, n);
const workflowOf = (stepId: string): string => {
  const dot = stepId.lastIndexOf('.');
  return dot > 0 ? stepId.slice(0, dot) : stepId;
};

/** Verbs whose object is the message: without "to …", a channel or a person in the object, nobody receives it. */
const CONTENT_VERBS = ['send', 'forward', 'share', 'post', 'announce', 'broadcast', 'escalate', 'publish'];
const RECIPIENT =
  /\b(to|with)\s+(the\s+|a\s+|an\s+|our\s+|their\s+|her\s+|his\s+|each\s+|every\s+|all\s+)?[\w-]+|#[\w-]+|@[\w-]+|\b(them|him|her|us|me|everyone|customers?|clients?|team|manager|owner|candidates?|leads?|requester|person|people|engineers?|employees?|hires?)\b/;
const BARE_OBJECTS = new Set([
  'requests',
  'tasks',
  'stuff',
  'things',
  'admin',
  'paperwork',
  'issues',
  'emails',
  'messages',
  'questions',
  'follow-ups',
  'followups',
]);
/** Verbs that ask someone for what they owe: what to do is clear, how often and by what means is not. */
const CHASE_VERBS = ['follow up', 'chase'];
/** Upkeep with no specifics: "keep the CRM up to date", "keep deals clean". */
const KEEP_UP =
  /^(?:keep|make sure|ensure)\b.*?\b(up to date|up-to-date|updated|current|accurate|in sync|clean|tidy|organi[sz]ed|in order)\b/;
const WHEN =
  /\b(every|each|daily|weekly|monthly|today|tomorrow|within|by|before|after|at \d|on (mon|tues|wednes|thurs|fri|satur|sun)day)\b/;

/** Whether a step says too little to be carried out: a vague verb, a vague object, or a message with no recipient. */
export function vagueness(step: DraftStep, workflowId: string = workflowOf(step.id)): Finding[] {
  const clause = parseClause(step.text);
  const verb = clause.verbPhrase ?? '';
  const out: Finding[] = [];
  // a product, a channel, or an object that says the work ("process refund requests") is detail enough
  const concrete = providersIn(clause.text).length > 0 || channelsIn(clause.text).length > 0 || namesAction(clause.object);
  const objectWords = contentWords(clause.object);
  const base = { workflowId, stepId: step.id, excerpt: clip(clause.text) };

  const upkeep = KEEP_UP.exec(clause.text.toLowerCase());
  // chasing someone says what to do (remind them) but not how often or by what means: a default will do
  const chasing = CHASE_VERBS.includes(verb) && !WHEN.test(clause.norm);
  if ((VAGUE_VERBS as readonly string[]).includes(verb) || chasing || upkeep) {
    const noDetail = !concrete && objectWords.length <= 2;
    out.push({
      ...base,
      category: 'underspecified_task',
      reason: upkeep
        ? `"${upkeep[0]}" does not say what to change, from what source, or when`
        : `"${verb}" does not say what the employee should do${noDetail ? ', nor with which tool' : ''}`,
      question: `What exactly should the employee do to ${clause.text.replace(/\.$/, '')}? Which steps, tools and outcome?`,
      blocking: noDetail && !chasing,
      ...(noDetail && !chasing
        ? {}
        : {
            default: chasing
              ? 'Send each one a short, polite reminder by email, and tell a human about any still open a week later.'
              : 'Acknowledge each item, answer what it can from the description, and escalate the rest to a human.',
          }),
    });
  } else {
    const bare = objectWords.length === 1 && BARE_OBJECTS.has(objectWords[0] ?? '') && !concrete && !clause.rest;
    const vagueObject = VAGUE_OBJECTS.find((re) => re.test(clause.core)) ?? (bare ? /\S+$/ : undefined);
    if (vagueObject) {
      out.push({
        ...base,
        category: 'underspecified_task',
        reason: `"${clause.core.match(vagueObject)?.[0] ?? clause.core}" leaves the task open`,
        question: `Which cases does "${clause.text}" cover, and what should happen in each?`,
        blocking: false,
        default: 'Handle only the cases named in the job description; ask a human about anything else.',
      });
    }
  }
  if (CONTENT_VERBS.includes(verb) && !concrete && !RECIPIENT.test(clause.norm)) {
    out.push({
      ...base,
      category: 'underspecified_task',
      reason: 'the message has no recipient or channel',
      question: `Who should receive it, and where: "${clause.text}"?`,
      blocking: false,
      default: 'Send it to the person who started the workflow.',
    });
  }
  out.push(...orgContext(clause.text, workflowId, step.id));
  return out;
}

/** Phrases that lean on knowledge only the organisation has: "the right team", "our refund policy". */
export function orgContext(text: string, workflowId: string, stepId?: string): Finding[] {
  const lower = text.toLowerCase();
  const out: Finding[] = [];
  for (const re of ORG_CONTEXT) {
    const m = lower.match(re);
    if (!m) continue;
    const phrase = m[0];
    if (out.some((f) => f.excerpt === phrase)) continue;
    out.push({
      category: 'organizational_context',
      workflowId,
      ...(stepId ? { stepId } : {}),
      excerpt: clip(phrase),
      reason: `"${phrase}" depends on knowledge the organisation has not given`,
      question: `What is "${phrase}" in your organisation? Give names, channels or a link the employee can use.`,
      blocking: false,
      default: 'Ask a human in the workflow when this is needed.',
    });
  }
  return out;
}

const VAGUE_START =
  /\b(when(ever)? (needed|necessary|appropriate|possible|required)|as needed|from time to time|regularly|periodically|occasionally|often|sometimes|as required|at some point|eventually|when it makes sense)\b/i;

/**
 * Everything worth asking about in one workflow: an unclear or missing start, steps with nothing to
 * do them with, vague steps and organisational context. Pass the capability match when there is one.
 */
export function ambiguities(workflow: DraftWorkflow, match?: CapabilityMatch): Finding[] {
  const out: Finding[] = [];
  const { kind, text } = workflow.triggerHint;
  const base = { workflowId: workflow.id };
  if (kind === 'unknown') {
    out.push({
      ...base,
      category: 'workflow_ambiguity',
      excerpt: clip(workflow.responsibility || workflow.name),
      reason: 'nothing in the description says what starts this workflow',
      question: `What should start "${workflow.name}": an event (which one?), a schedule (when?), or a person asking?`,
      blocking: false,
      default: 'Run it when a person asks the employee to.',
    });
  } else if (VAGUE_START.test(text) || VAGUE_START.test(workflow.responsibility)) {
    out.push({
      ...base,
      category: 'workflow_ambiguity',
      excerpt: clip(text || workflow.responsibility),
      reason: 'the start of this workflow is vague',
      question: `When exactly should "${workflow.name}" run?`,
      blocking: false,
      default: 'Every weekday at 09:00.',
    });
  } else if (kind === 'schedule' && !parseSchedule(text)) {
    out.push({
      ...base,
      category: 'workflow_ambiguity',
      excerpt: clip(text),
      reason: 'the schedule could not be read',
      question: `On what schedule should "${workflow.name}" run?`,
      blocking: false,
      default: 'Every weekday at 09:00.',
    });
  }
  if (match && kind === 'event' && match.trigger.triggerId === null) {
    out.push({
      ...base,
      category: 'workflow_ambiguity',
      excerpt: clip(text),
      reason: `no catalog trigger matches "${text}"`,
      question: `"${text}" — how will the employee hear about it? Pick an integration event, a schedule, or a webhook.`,
      blocking: false,
      default: 'Check for it on a schedule, every weekday at 09:00.',
    });
  }
  if (workflow.steps.length === 0) {
    out.push({
      ...base,
      category: 'underspecified_task',
      excerpt: clip(workflow.responsibility || workflow.name),
      reason: 'the workflow has no steps',
      question: `What should the employee do in "${workflow.name}"?`,
      blocking: true,
    });
  }
  for (const step of workflow.steps) {
    const found = vagueness(step, workflow.id);
    out.push(...found);
    const m = match?.steps.find((s) => s.stepId === step.id);
    const verb = parseClause(step.text).verbPhrase ?? '';
    const thinking = (COGNITIVE_VERBS as readonly string[]).includes(verb);
    if (m && m.capabilityId === null && !thinking && !found.some((f) => f.category === 'underspecified_task')) {
      out.push({
        ...base,
        stepId: step.id,
        category: 'underspecified_task',
        excerpt: clip(step.text),
        reason: 'no capability in the catalog does this step',
        question: `How should the employee "${step.text}"? Name the tool, or say that a person does it.`,
        blocking: false,
        default: 'Ask a human to do this step and wait for confirmation.',
      });
    }
  }
  const seen = new Set(out.filter((f) => f.category === 'organizational_context').map((f) => f.excerpt));
  for (const f of orgContext(workflow.description, workflow.id)) {
    if (!seen.has(f.excerpt)) {
      seen.add(f.excerpt);
      out.push(f);
    }
  }
  return out;
}
