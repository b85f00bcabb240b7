// The example a capability's or trigger's parameter gives of its value: what the creation's questions and a run's
// questions show as an answer's placeholder, and the question's words without it.

/**
 * An example said in a parameter's description, and where: "project key, e.g. OPS" (to the end, or to a sentence
 * after it), "Date (ISO 8601, e.g. 2024-01-31)" (to its bracket's end), "query, e.g. "from:billing@acme.com"" (a quoted
 * one whole, quotes and all). Pure.
 */
function saidExample(description: string): { example: string; start: number; end: number } | undefined {
  const eg = /,?\s*\be\.g\.?,?\s*/i.exec(description);
  if (!eg) return undefined;
  const from = eg.index + eg[0].length;
  const rest = description.slice(from);
  // (in brackets: to the bracket that closes them, the bracket left to the description)
  const bracketed = description.slice(0, eg.index).lastIndexOf('(') > description.slice(0, eg.index).lastIndexOf(')');
  const quoted = /^(["'“‘])(.+?)(["'”’])(?=\W|$)/.exec(rest);
  const said = quoted
    ? { text: quoted[2] ?? '', length: quoted[0].length }
    : (() => {
        const stop = (bracketed ? /\)|\.\s+(?=[A-Z])|\.?$/ : /\.\s+(?=[A-Z])|\.?$/).exec(rest);
        const text = rest.slice(0, stop?.index ?? rest.length);
        return { text, length: text.length };
      })();
  const example = said.text.trim();
  return example ? { example, start: eg.index, end: from + said.length } : undefined;
}

/** An example answer for a parameter: its example, its default, or the "e.g. …" of its description. Pure. */
export function exampleOf(param: { description?: string; default?: unknown; example?: unknown }): { exampleAnswer?: string } {
  const example = param.example ?? param.default ?? saidExample(param.description ?? '')?.example;
  return example !== undefined && example !== '' ? { exampleAnswer: String(example) } : {};
}

/** A parameter's description without the example it gives ("project key, e.g. OPS" → "project key"). Pure. */
export function withoutExample(description: string): string {
  const said = saidExample(description);
  if (!said) return description;
  return (
    `${description.slice(0, said.start)}${description.slice(said.end)}`
      .replace(/\(\s*\)/, '')
      .replace(/\s{2,}/g, ' ')
      .trim() || description
  );
}
