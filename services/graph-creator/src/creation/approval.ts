/**
 * Which steps a person approves at run time (`risk: 'high'` in the spec: the run's confirm node asks
 * approve / reject for each). Pure.
 *
 * When the job description says where a person approves ("ask a manager to approve anything larger
 * before refunding"), it has drawn the line itself: the steps behind that approval ask, and the rest
 * of the workflow — "refund it automatically when it is under $100", "reply in the ticket" — runs as
 * described, without a prompt. When it says nothing about approvals, every step the catalog rates
 * high-risk (it moves money, reaches customers or changes code) asks first. A step its clause says
 * runs on its own ("automatically", "without asking") never asks.
 */
import type { Risk } from '@hireloop/schemas';

export interface RiskStep {
  stepId: string;
  /** the clause of the job description the step comes from */
  text: string;
  /** the catalog's rating of its capability */
  risk: Risk;
}

const ON_ITS_OWN =
  /\b(automatic(ally)?|without (asking|approval|a review|review|sign-?off|confirmation)|on its own|straight away|right away)\b/i;
/** a clause that waits for a person's yes: "once approved", "after approval", "if the manager approves" */
const BEHIND_APPROVAL =
  /\b(once|after|when|if|upon|following)\b[^.;]{0,40}\b(approv\w*|sign(s|ed)?[- ]?off|confirm(s|ed)?)\b|\b(needs?|requires?|with|pending)\b[^.;]{0,20}\b(approval|sign-?off)\b/i;

/** A step behind an approval: the approved branch the binder split off (`<step>.approved`), or a clause that waits for one. */
export const behindApproval = (step: RiskStep): boolean => step.stepId.endsWith('.approved') || BEHIND_APPROVAL.test(step.text);

export function runTimeRisks(steps: readonly RiskStep[]): Risk[] {
  const gated = steps.map(behindApproval);
  const described = gated.some(Boolean);
  return steps.map((step, i) => {
    if (gated[i]) return 'high';
    if (ON_ITS_OWN.test(step.text) || described) return 'low';
    return step.risk;
  });
}
