/**
 * The title a job description opens with, to name the employee when nobody named it: "Refunds specialist: when …",
 * "Sales follow-up: …", "Follow-up assistant - when …", "Night desk — …". A hyphen inside a word is part of the title;
 * one with a space on either side, or two ("Email triage -- …"), ends it. Pure.
 */
export function titleOf(jobDescription: string): string | undefined {
  return /^\s*([A-Z][\w&/ -]{2,60}?)\s*(?:[:.\n—–]|-{2,}|\s-|-\s)/.exec(jobDescription)?.[1]?.trim() || undefined;
}
