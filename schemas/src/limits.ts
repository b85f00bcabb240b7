/** Bounds on every string and array a fact may carry, so that no fact can be unbounded. */
export const Limits = {
  id: 128,
  name: 200,
  shortText: 500,
  text: 20_000,
  messages: 20,
  message: 16_000,
  options: 50,
  questions: 20,
  workflows: 20,
  steps: 30,
  gaps: 100,
  graphItems: 500,
  checks: 100,
  trace: 200,
  /** levels of nesting in any JSON from outside: no contract shape is near it, and deeper input would exhaust the stack */
  jsonDepth: 64,
  /** bytes of one serialized fact on the wire */
  factBytes: 1_000_000,
} as const;
