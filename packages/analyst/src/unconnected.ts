import { providersIn, unknownProductsIn } from './text';

/**
 * A product the writer says is not connected: "Deposits are paid through Square, which isn't connected to
 * anything yet", "we haven't connected BambooHR yet", "the in-app chat is intercom, not hooked up to anything",
 * "Once Cliniko is connected, …".
 * The words that say so, before the product ("haven't connected X") or after it ("X, which isn't linked").
 */
const NOT_CONNECTED =
  /(?:\bnot|n['’]t|\bnever|\byet to|\bnothing)\b[^.;,!?()]{0,40}?\b(?:connected|connect|hooked(?:\s+up)?|linked(?:\s+up)?|integrated|plugged\s+in|wired\s+(?:up|in))\b|\bno\s+(?:integration|connection)\s+(?:for|with|to)\b|\b(?:will|['’]ll|(?:(?:is|are|am)\s+|['’](?:re|m)\s+)going\s+to|plan(?:s|ning)?\s+to|about\s+to)\s+(?:be\s+)?(?:connect|connected|hook(?:ed)?\s+up|link(?:ed)?(?:\s+up)?)\b|\b(?:which|that)\s+(?:you|hireloop|it|the (?:assistant|bot|agent))\s+(?:can['’]t|cannot|can not|don['’]t|doesn['’]t|won['’]t)\s+(?:see|access|reach|get (?:in)?to)\b|\b(?:once|until|till|as soon as)\s+[^.;,!?()]{1,40}?\s+(?:is|are|gets?|has been|have been)\s+(?:connected|hooked\s+up|linked(?:\s+up)?|integrated|plugged\s+in)\b/gi;
/** Linked to something other than hireloop ("to Jira", "to a company"): not a connection of ours. */
const LINKED_TO_ANOTHER =
  /^\s+(?:to|with|into)\s+(?!(?:you|hireloop|this|that|it|us|anything|anywhere|here|the (?:assistant|platform|bot|agent|employee)|our (?:assistant|bot))\b)(?:a|an|the|our|their)?\s*[a-z]/i;
/** A capitalised name right before the words ("FilmFreeway isn't", "Discord is not"): what they are said of. */
const SUBJECT_NAME = /\b([A-Z][\w.]*[a-z0-9][\w.]*)\s+(?:is|are|has|have|was|were)?\s*$/;
/** The product right after the words, named as what it is linked to: "linked to Acuity", "connected with Nexudus". */
const TO_PRODUCT = /^\s+(?:to|with|into)\s+(?=[A-Z])/;

/** "don't …", "never …" said to the employee (no subject before it): an order, not a statement of the setup. */
const ORDER_BEFORE = /(?:^|[,;:(—–-]|\b(?:and|but|then|so|please|also|just|pls))\s*(?:do|never)?$/i;
/** "the linked ticket": the word describes a thing, it says nothing of a connection. */
const DESCRIBES = /\b(?:the|a|an|our|their|your|its|this|that|these|those|any|every|each)\s+$/i;

export interface UnconnectedProduct {
  providerId: string;
  /** the words that say it, for the question or the review */
  excerpt: string;
}

/**
 * The products a sentence says are not connected: the product named nearest before the words that say so,
 * within the clause they are in or the one before it, or right after them ("haven't connected QuickBooks").
 * A product the catalog knows or one named where a tool goes ("through Square"). Pure.
 */
export function saidUnconnected(sentence: string): UnconnectedProduct[] {
  const out: UnconnectedProduct[] = [];
  const named = [...providersIn(sentence).filter((m) => !m.weak), ...unknownProductsIn(sentence)].sort(
    (a, b) => a.index - b.index,
  );
  for (const m of sentence.matchAll(NOT_CONNECTED)) {
    const at = m.index ?? 0;
    const end = at + m[0].length;
    // ("Don't connect to Stripe", "never tag the linked ticket": an order, or a thing described)
    const negation = /^(?:n['’]t|not|never)/i.exec(m[0])?.[0] ?? '';
    const head = sentence.slice(0, at).replace(/\s+$/, '');
    if (negation && /^(?:n['’]t|never)/i.test(negation) && ORDER_BEFORE.test(head.replace(/\bdo$/i, '').trimEnd())) continue;
    if (DESCRIBES.test(sentence.slice(0, end).replace(/\S+$/, ''))) continue;
    // ("not sure QuickBooks is hooked up", "haven't connected BambooHR", "Square, which isn't connected")
    // ("Once Cliniko is connected": a name the lists do not know, as the subject of the words)
    const awaited =
      /^(?:[Oo]nce|[Uu]ntil|[Tt]ill|[Aa]s soon as)\s+([A-Z][\w.]*[a-z0-9][\w.]*)\s+(?:is|are|gets?|has|have)\b/.exec(m[0])?.[1];
    const within =
      named.find((p) => p.index > at && p.index < end) ??
      (awaited && !/^(?:It|This|That|They|Everything|Everyone|Someone|Anything|He|She)$/.test(awaited)
        ? {
            providerId: awaited.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
            name: awaited.toLowerCase(),
            index: at + m[0].indexOf(awaited),
            weak: false,
          }
        : undefined);
    // ("GitHub isn't linked to Jira", "tickets that aren't linked to a Jira issue", "customers who haven't linked
    // their account": two things not linked to each other, or someone else's doing — nothing said of hireloop)
    const ours = /^nothing\b/i.test(m[0]);
    if (
      (!ours && LINKED_TO_ANOTHER.test(sentence.slice(end))) ||
      /\bwho\s+(?:\w+\s*){0,2}$/i.test(sentence.slice(Math.max(0, at - 30), at))
    )
      continue;
    const to = TO_PRODUCT.exec(sentence.slice(end));
    const after =
      named.find((p) => p.index >= end && /^\s*(?:(?:its|our|their|the|my|your|up)\s+)?$/i.test(sentence.slice(end, p.index))) ??
      (to ? unknownProductsIn(`in ${sentence.slice(end + to[0].length)}`)[0] : undefined);
    const before = named.filter((p) => p.index < at && at - p.index <= 90).at(-1);
    // ("…, but FilmFreeway isn't connected": the name right before the words is what they are said of)
    const said = SUBJECT_NAME.exec(sentence.slice(0, at))?.[1];
    const subject =
      said && !/^(?:It|This|That|We|I|They|He|She|Hireloop|Nothing|Everything)$/.test(said)
        ? (named.find((p) => p.index === sentence.slice(0, at).lastIndexOf(said) || p.name === said.toLowerCase()) ?? {
            providerId: said.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
            name: said.toLowerCase(),
            index: sentence.slice(0, at).lastIndexOf(said),
            weak: false,
          })
        : undefined;
    const product = within ?? after ?? subject ?? before;
    if (!product || out.some((o) => o.providerId === product.providerId)) continue;
    const from = Math.max(0, Math.min(product.index, at) - 40);
    const excerpt = sentence.slice(from, Math.max(end, product.index + product.name.length) + 20).trim();
    out.push({ providerId: product.providerId, excerpt: excerpt.slice(0, 200) });
  }
  return out;
}
