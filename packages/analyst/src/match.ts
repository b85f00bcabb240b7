import { type CatalogCapability, type CatalogTrigger, capabilityVocabulary, triggerVocabulary } from '@hireloop/schemas';
import {
  ALL_TRIGGER_SENSES,
  CAPABILITY_SENSES,
  COGNITIVE_VERBS,
  EXTERNAL_PEOPLE,
  INTERNAL_PEOPLE,
  isArrivalTrigger,
  KNOWN_VERBS,
  lapseIn,
  MESSAGE_FAMILY,
  NUMBER_WORDS,
  PRODUCT_KIND_CUES,
  PROVIDER_CUES,
  REPLY_VERBS,
  SAME_KIND,
  type Sense,
  TRIGGER_SENSES,
  type TriggerSense,
  VAGUE_VERBS,
} from './lexicon';
import { beforeMeeting, DAY, parseSchedule } from './schedule';
import {
  type Clause,
  channelsIn,
  contentWords,
  contextOf,
  handlesIn,
  hasTerm,
  isWord,
  lemmas,
  parseClause,
  providersIn,
  tokenize,
  unknownProductsIn,
} from './text';
import type { CapabilityMatch, Catalog, DraftStep, DraftWorkflow, StepMatch, TriggerMatch } from './types';
import { catalogVocabulary, rankByVocabulary } from './vocabulary';

// Steps → capabilities and workflows → triggers: a hand table of senses for the built-in catalog, and
// the catalog's own vocabulary (vocabulary.ts: BM25 + verb–object) for every step the table does not
// understand and every capability or trigger it does not list.

const round = (n: number): number => Math.round(n * 100) / 100;
const clamp = (n: number): number => Math.max(0, Math.min(1, n));
const providerOf = (id: string): string => id.slice(0, id.indexOf('.'));
const family = new Set<string>(MESSAGE_FAMILY);
const MIN_SCORE = 3.5;

/** A sense for a capability the hand table does not list: its catalog vocabulary, else its name ("create_task"). */
function derivedSense(c: CatalogCapability): Sense {
  const v = c.vocabulary ?? catalogVocabulary(c.id);
  if (v) return { verbs: v.verbs, objects: v.objects };
  const [verb = '', ...rest] = c.name.split('_');
  return { verbs: [verb], objects: rest.length ? [rest.join(' '), ...rest] : [] };
}

function derivedTriggerSense(t: CatalogTrigger): TriggerSense {
  const v = t.vocabulary ?? catalogVocabulary(t.id);
  if (v) return { subjects: v.objects, events: v.verbs, creation: isArrivalTrigger(t.id) };
  const words = t.name.split('_');
  const isNew = words[0] === 'new';
  const last = words[words.length - 1] ?? '';
  const event = /(ed|ing)$/.test(last) ? (lemmas(last)[2] ?? last) : '';
  const subjects = words.filter((w) => w !== 'new' && w !== last);
  if (!event) subjects.push(last);
  return { subjects: subjects.length ? [subjects.join(' '), ...subjects] : [], events: event ? [event] : [], creation: isNew };
}

type Ctx = {
  triggerProvider: string | null;
  prevProvider: string | null;
  /** the capability of the step before, when it matched one */
  prevCapability?: string | null;
  connected: ReadonlySet<string>;
  /** products the workflow's own words name as where its work is done ("We're on QuickBooks but it isn't linked") */
  said?: ReadonlySet<string>;
};

/** A capability that makes a place, and the one that brings people into it: said next, the step joins them to it. */
const JOINS_WHAT_WAS_MADE: Readonly<Record<string, string>> = { 'slack.create_channel': 'slack.invite_user' };

type Scored = { id: string; providerId: string; score: number; verb: boolean; phrase: boolean };

const PRONOUN_OBJECT = /^(it|them|this|that|these|those|each one|one|him|her|all of them|everything)?$/;

function recipientKind(clause: Clause): 'external' | 'internal' | 'requester' | null {
  const scope = `${clause.object} ${clause.rest}`;
  if (/\b(the (person|requester|sender|user|asker)|them|him|her)\b/.test(clause.object)) return 'requester';
  // (the IT team is written in capitals: "send it to them" names no one inside)
  const internal = INTERNAL_PEOPLE.find((p) => (p === 'it' ? /\bIT\b/.test(clause.text) : hasTerm(scope, p)));
  const external = EXTERNAL_PEOPLE.find((p) => hasTerm(scope, p));
  if (external && internal)
    return scope.search(new RegExp(`\\b${external}`)) < scope.search(new RegExp(`\\b${internal}`)) ? 'external' : 'internal';
  if (external) return 'external';
  if (internal) return 'internal';
  return null;
}

/** Where a cue word sits: after in/on/to/into/via/through/by it names where the action lands. */
function cueScore(clause: Clause, providerId: string): number {
  let best = 0;
  if (providerId === 'slack' && channelsIn(clause.core).length) best = 2;
  for (const cue of [...(PROVIDER_CUES[providerId] ?? []), ...(PRODUCT_KIND_CUES[providerId] ?? [])]) {
    if (!hasTerm(clause.core, cue)) continue;
    const destination = new RegExp(
      // (a place's name may be quoted: "in the "Viewings" calendar")
      `\\b(in|on|to|into|via|through|by|over)\\s+(the\\s+|a\\s+|an\\s+|our\\s+|their\\s+|her\\s+|his\\s+|each\\s+|that\\s+)?([\\w-]+\\s+|["'][^"'\\n]{1,40}["']\\s+)?${cue}`,
    ).test(clause.core);
    best = Math.max(best, destination ? 2 : 1);
  }
  return best;
}

function scoreCapability(c: CatalogCapability, clause: Clause, ctx: Ctx, named: ReadonlyMap<string, boolean>): Scored {
  const sense = CAPABILITY_SENSES[c.id] ?? derivedSense(c);
  const verb = clause.verbPhrase ?? '';
  const v = clause.verb ?? '';
  let score = 0;
  let verbHit = false;
  if ((sense.keyVerbs ?? []).some((k) => k === verb || k === v)) {
    score += 4;
    verbHit = true;
  } else if (sense.verbs.some((k) => k === verb)) {
    score += 2;
    verbHit = true;
  } else if (sense.verbs.some((k) => k === v && !k.includes(' '))) {
    // a phrasal verb may say something else than its head: "set them up in BambooHR" is no "set" of a field (not
    // "write back", "send out", where the particle says only where it goes)
    score += verb === v || !/ (?:up|off|over|down|on)$/.test(verb) ? 2 : 1;
    verbHit = true;
  }
  const phraseHit = (sense.phrases ?? []).some((re) => re.test(clause.core));
  if (phraseHit) score += 3;
  const objects = sense.objects ?? [];
  // ("save to Drive "Artwork In"": where it goes, said right after the verb, is no object of it)
  const object = /^(?:to|into|onto)\s/.test(clause.object) ? '' : clause.object;
  const hits = objects.filter((o) => hasTerm(object, o));
  // (a thing of the product's own, not someone it is sent to: "send the client a polite reminder" sends no invoice)
  const thingHit = hits.some(
    (o) => !(EXTERNAL_PEOPLE as readonly string[]).includes(o) && !(INTERNAL_PEOPLE as readonly string[]).includes(o),
  );
  if (hits.length > 0) score += 2;
  else if (objects.some((o) => hasTerm(clause.core, o))) score += 1;
  else if ((sense.generic ?? []).some((o) => hasTerm(object, o))) score += 1;
  else if ((sense.generic ?? []).some((o) => hasTerm(clause.core, o))) score += 0.5;

  const strong = named.get(c.providerId);
  if (strong === true) score += 2.5;
  else if (strong === false) score += 0.5;
  // (a product in the object counts against others only where it is where the step acts, not whose things they are
  // or where a thing is kept: "send every new HubSpot contact a welcome email")
  else if (providersIn(clause.object).some((m) => !m.weak && named.get(m.providerId) !== false)) score -= 2.5;
  else if ([...named.values()].some(Boolean)) score -= 1;
  score += cueScore(clause, c.providerId);

  const pronoun = PRONOUN_OBJECT.test(contentWords(clause.object).join(' '));
  // (the work's own product, for a thing of its own: "book a video interview" for an applicant in Greenhouse)
  if (ctx.triggerProvider === c.providerId) score += (pronoun || thingHit) && verbHit ? 1.5 : 0.5;
  // ("create the QuickBooks invoice …, send it": what the step before made is what is sent, wherever the work came from)
  else if (ctx.prevProvider === c.providerId && verbHit) score += pronoun ? 2 : 0.5;
  // "create a private Slack channel, invite the CSM and the AE": who is invited after a place is made goes into it
  if (verbHit && ctx.prevCapability && JOINS_WHAT_WAS_MADE[ctx.prevCapability] === c.id) score += 2;

  if (family.has(c.id) && (verbHit || phraseHit)) {
    const familyCue = MESSAGE_FAMILY.some((id) => named.has(providerOf(id)) || cueScore(clause, providerOf(id)) > 0);
    if (!familyCue) {
      const recipient = recipientKind(clause);
      const replying = (REPLY_VERBS as readonly string[]).includes(verb) || recipient === 'requester' || recipient === null;
      if (
        replying &&
        ctx.triggerProvider &&
        family.has(MESSAGE_FAMILY.find((id) => providerOf(id) === ctx.triggerProvider) ?? '')
      ) {
        if (c.providerId === ctx.triggerProvider) score += 1.5;
      } else if (recipient === 'external' && c.id === 'gmail.send_email') score += 1.5;
      // the one who sent what started the work, where it did not come by a channel of ours ("send them a
      // confirmation" after a form, a booking, a signature): someone outside, reached by email — less than a
      // product the step before acted in, which "them" may be of ("update them" after finding a contact)
      else if (recipient === 'requester' && ctx.triggerProvider && c.id === 'gmail.send_email') score += 0.75;
      else if (recipient === 'internal' && c.id === 'slack.post_message') score += 1.5;
      else if (recipient === null && c.id === 'gmail.send_email') score += 0.5;
    }
  }
  if (ctx.connected.has(c.providerId)) score += 0.25;
  return { id: c.id, providerId: c.providerId, score, verb: verbHit, phrase: phraseHit };
}

// ---- steps ----

const isCognitive = (verb: string): boolean => (COGNITIVE_VERBS as readonly string[]).includes(verb);
const isVague = (verb: string): boolean => (VAGUE_VERBS as readonly string[]).includes(verb);

/** Before a product, where a thing the step speaks of is kept, not where the step acts: "the handbook held on Google Drive". */
const KEPT_IN =
  /\b(?:held|stored|kept|saved|filed|sitting|living|lives|hosted|found)\s+(?:on|in|at)\s+(?:our\s+|the\s+|your\s+)?$/i;

/** Before a product, what a link points at, not where the step acts: "with a link back to the GitHub issue", "a ticket linked to a Jira bug". */
const LINKED_TO = /\blink(?:s|ed)?\s+(?:back\s+)?to\s+(?:the\s+|an?\s+|their\s+|its\s+|that\s+|this\s+|each\s+)?$/i;

function namedProviders(text: string, sends = false): Map<string, boolean> {
  const named = new Map<string, boolean>();
  for (const m of providersIn(text)) {
    // ("email them the handbook held on Google Drive": where it is kept, for a step that sends it)
    // (nor where a link points: "create a Bug in PAY with a link back to the GitHub issue")
    // (nor whose things they are, for a step that sends to each: "email every new HubSpot contact a welcome note")
    const before = text.slice(0, m.index);
    const strong =
      !m.weak &&
      !(sends && (KEPT_IN.test(before) || /\b(?:each|every|any|all)\s+(?:new\s+)?$/i.test(before))) &&
      !LINKED_TO.test(before);
    named.set(m.providerId, (named.get(m.providerId) ?? false) || strong);
  }
  return named;
}

/** Verbs too general to be the action a light verb hides ("handle requests", "manage the tasks"). */
const GENERAL_VERBS = new Set(['request', 'ask', 'check', 'get', 'make', 'set', 'note', 'change', 'need', 'task', 'issue']);

/**
 * The action a light verb's object names ("refund requests" → refund, "invoicing" → invoice): the
 * first word of the object whose base form is a verb of a catalog entry's vocabulary. Pure.
 */
function actionInObject(object: string, catalog: Catalog): { word: string; verb: string } | null {
  const verbs = new Set(
    catalog.capabilities.flatMap((c) => (c.vocabulary ?? catalogVocabulary(c.id))?.verbs ?? []).filter((v) => !v.includes(' ')),
  );
  for (const token of tokenize(object)) {
    const verb = lemmas(token.lower).find((l) => verbs.has(l) && !GENERAL_VERBS.has(l));
    if (verb) return { word: token.text, verb };
  }
  return null;
}

/**
 * What a message says, after the words that send it: "post in #general reminding everyone to fill in their Harvest
 * timesheets" (not "that" pointing at a thing after a preposition: "message the supervisor for that site on WhatsApp").
 */
const WHAT_IT_SAYS =
  /[\s,]+(?:reminding|asking|telling|saying|letting|to (?:remind|ask|tell|say|let)|(?<!\b(?:for|on|in|at|to|from|of|with|about|by|into|onto)\s+)that)\b.*$/i;

/** A product outside the catalog a text names: one a list knows ("Calendly"), else one named where a tool goes. */
const outsideProductOf = (text: string, catalog: Catalog): string | null =>
  providersIn(text).find((m) => !m.weak && !inCatalog(catalog, m.providerId))?.providerId ?? unnamedProduct(text);

/**
 * The product outside the catalog a start happens in, when a catalog trigger that fits its words is only a like event
 * of a product it does not name ("When a review is posted on Trustpilot" is no Slack message); null for a webhook (how
 * an outside system reaches an employee) or a trigger whose product the start names too. Pure.
 */
function happensElsewhere(text: string, triggerId: string, catalog: Catalog): string | null {
  if (triggerId === 'webhook.incoming_webhook') return null;
  const outside = outsideProductOf(text, catalog);
  if (!outside || providersIn(text).some((m) => !m.weak && m.providerId === providerOf(triggerId))) return null;
  // (a product said only as the start's home, "When a new lead comes in (in Shopify)", gives way to the like event of
  // a product the org has connected)
  const own = withoutHome(text);
  if (own === text) return outside;
  return outsideProductOf(own, catalog) === outside || !catalog.connected.includes(providerOf(triggerId)) ? outside : null;
}

/** A product no list knows, named where a tool goes ("in Personio"); never a word of the catalog's vocabulary. */
const unnamedProduct = (text: string): string | null =>
  unknownProductsIn(text, (w) => VOCABULARY_WORDS.has(w))[0]?.providerId ?? null;
const VOCABULARY_WORDS = new Set(
  Object.values({ ...capabilityVocabulary, ...triggerVocabulary }).flatMap((v) =>
    [...v.verbs, ...v.objects, ...v.aliases].flatMap((p) => p.toLowerCase().split(/\s+/)),
  ),
);

const inCatalog = (catalog: Catalog, providerId: string): boolean =>
  catalog.capabilities.some((c) => c.providerId === providerId) || catalog.triggers.some((t) => t.providerId === providerId);

/** The same action of two products: "stripe.create_invoice" and "quickbooks.create_invoice". */
const sameAction = (a: string, b: string): boolean => a.slice(a.indexOf('.')) === b.slice(b.indexOf('.'));

/** Two products' ways to the same work: the same action, or one kind of record ("a ticket": Zendesk's or Jira's). */
const sameKind = (a: string, b: string): boolean =>
  sameAction(a, b) || SAME_KIND.some((kind) => kind.includes(a) && kind.includes(b));

/** A free time named with no verb: "first free 1-hour slot …", "next free slot on Friday" (not "free up the slot"). */
const FREE_SLOT_SAID =
  // (not a price: "free on the day of check-out", "free of charge", "free for members")
  /^(?:(?:the|a|an)\s+)?(?:(?:first|next|earliest)\s+)?free\s+(?!(?:up|the|a|an|that|this|it|them|those|these|their|our|my|your|his|her|its|on|of|for|to|with|from|in|at|until|till|after|before|if|when|and|or|delivery|shipping|entry|parking)\b)/i;

/**
 * A quoted field set to a value, the record left unsaid or only pointed at: "set "Rent 2025" to Paid", "mark 'Status'
 * as done", "set "Training due" on their record to …".
 */
const SET_FIELD =
  /^(set|mark|change|update|tick|flip)\s+(["'][^"']{1,60}["'])(?:\s+(?:on|in)\s+(?:their|his|her|its|the)\s+(?:record|profile|row|page|card|contact|file|entry))?\s+(to|as)\b/i;

/** A start's setting as the segmenter writes it: the product it may happen in, "in Shopify". */
const HOME_SAID = /^in [\w][\w.&'’-]*(?: [A-Z0-9][\w.&'’-]*){0,2}$/;

/** A start's words without the home the segmenter wrote: "When an order is refunded (in Shopify)" → its words. Pure. */
function withoutHome(text: string): string {
  const home = contextOf(text);
  return home !== undefined && HOME_SAID.test(home) ? text.slice(0, text.lastIndexOf(`(${home})`)).trimEnd() : text;
}

/** Maps one step to a capability (any provider: the caller decides what an unconnected one means). */
export function matchStep(step: DraftStep, catalog: Catalog, ctx: Ctx): StepMatch {
  // "first free 1-hour slot in the Workshop calendar": free said of a slot, not the verb ("free up the slot")
  if (FREE_SLOT_SAID.test(step.text))
    return matchStep({ ...step, text: step.text.replace(FREE_SLOT_SAID, 'find the first free ') }, catalog, ctx);
  // "set "Season 2025" to Paid" after finding the row: a named field of the record at hand is set
  const field = SET_FIELD.exec(step.text);
  const holder = ctx.prevProvider ?? ctx.triggerProvider;
  if (field && holder) {
    // the record of the product at hand first ("look them up" in HubSpot, then a HubSpot property), else any
    const said = { ...step, text: step.text.replace(SET_FIELD, `${field[1]} the ${field[2]} field ${field[3]}`) };
    const own = { ...catalog, capabilities: catalog.capabilities.filter((c) => c.providerId === holder) };
    const mine = matchStep(said, own, { ...ctx, prevProvider: holder });
    return mine.capabilityId ? mine : matchStep(said, catalog, ctx);
  }
  const clause = parseClause(step.text);
  const sends = /^(?:email|e-mail|send|text|message|post|reply|dm|tell|notify|remind|forward)$/i.test(clause.verb ?? '');
  const named = namedProviders(clause.core, sends);
  // a product the catalog does not have ("in Microsoft Teams"): a missing integration, not a look-alike tool
  // (a capitalised name beside a product of the catalog is a place in it: "to google drive in Incoming Artwork/…")
  const inOurs = [...named].some(([p, strong]) => strong && inCatalog(catalog, p));
  const outside =
    [...named].find(([p, strong]) => strong && !inCatalog(catalog, p))?.[0] ??
    (inOurs ? null : unnamedProduct(sends ? clause.text.replace(WHAT_IT_SAYS, '') : clause.text));
  if (outside) return { stepId: step.id, capabilityId: null, providerId: outside, confidence: 0.3, candidates: [] };
  // "process refund requests", "take care of invoicing": a light verb whose object names the action
  const action = isVague(clause.verbPhrase ?? '') ? actionInObject(clause.object, catalog) : null;
  if (action) {
    const rest = clause.object.replace(new RegExp(`^.*?\\b${action.word}\\b\\s*`, 'i'), '');
    const reread = matchStep({ ...step, text: `${action.verb} ${rest}`.trim() }, catalog, ctx);
    if (reread.capabilityId) return reread;
  }
  const scored = catalog.capabilities
    .map((c) => scoreCapability(c, clause, ctx, named))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score);
  // the same action in the product the workflow says its work is in ("We're on QuickBooks": invoice there, not in Stripe)
  const top = scored[0];
  // (not where the step names its product, "create a Jira issue", nor where the org has the product it found)
  // (and where the step names no product and the org lacks the one found, the same kind of work in one it has:
  // "raise a ticket in the DRAFT project" with Jira connected and no helpdesk)
  // (nor where the work comes from that product, or the step says its record: "reply on the ticket" of a Zendesk start)
  const unsaid =
    top &&
    !ctx.said?.has(top.providerId) &&
    !ctx.connected.has(top.providerId) &&
    named.get(top.providerId) !== true &&
    top.providerId !== ctx.triggerProvider &&
    !(top.id === 'zendesk.reply_ticket' && /\btickets?\b/i.test(clause.core));
  const own = unsaid
    ? (scored.find((s) => ctx.said?.has(s.providerId) && sameAction(s.id, top.id)) ??
      (named.size === 0 ? scored.find((s) => ctx.connected.has(s.providerId) && s.verb && sameKind(s.id, top.id)) : undefined))
    : undefined;
  const best = own && top ? { ...own, score: top.score, verb: top.verb, phrase: top.phrase } : top;
  const second = own ? top : scored[1];
  const candidates = scored.filter((s) => s.score >= 2).slice(0, 5);
  if (best && (best.verb || best.phrase) && best.score >= MIN_SCORE) {
    const margin = best.score - (second?.score ?? 0);
    const confidence = clamp((0.3 + 0.06 * best.score) * (margin < 1 ? 0.8 : 1));
    return {
      stepId: step.id,
      capabilityId: best.id,
      providerId: best.providerId,
      confidence: round(Math.min(0.95, confidence)),
      candidates: candidates.map((c) => c.id),
    };
  }
  // the hand table does not know this step: the catalog's own vocabulary (BM25 + verb–object) may
  const verb = clause.verbPhrase ?? '';
  if (!isVague(verb)) {
    const hits = rankByVocabulary(clause.core, catalog.capabilities, {
      connected: ctx.connected,
      nearProvider: ctx.triggerProvider ?? ctx.prevProvider,
      verb: clause.verb && KNOWN_VERBS.has(clause.verb) ? clause.verb : null,
    });
    const top = hits[0];
    if (top && (!isCognitive(verb) || top.alias || (top.verb && !top.derived))) {
      const margin = top.score - (hits[1]?.score ?? 0);
      return {
        stepId: step.id,
        capabilityId: top.id,
        providerId: top.providerId,
        confidence: top.derived ? 0.4 : top.alias || (top.verb && top.object) ? (margin > 2 ? 0.6 : 0.5) : 0.4,
        candidates: [...new Set([...hits.map((h) => h.id), ...candidates.map((c) => c.id)])].slice(0, 5),
      };
    }
  }
  // no capability, but the step may still name the product it needs ("look up their record in BambooHR"),
  // in the catalog or not ("post it in Microsoft Teams")
  const product = providersIn(clause.core).find(
    (m) =>
      !m.weak &&
      (catalog.capabilities.some((c) => c.providerId === m.providerId) ||
        !catalog.triggers.some((t) => t.providerId === m.providerId)),
  );
  return {
    stepId: step.id,
    capabilityId: null,
    providerId: product?.providerId ?? null,
    confidence: round(best ? 0.2 : 0.1),
    candidates: candidates.map((c) => c.id),
  };
}

// ---- triggers ----

const LEAD = /^(when(ever)?|as soon as|each time|every time|any ?time|upon|after|once|if|on|for (each|every))\s+/i;
const AUXILIARY = /^(is|are|was|were|be|been|being|gets?|got|has|have|had|does|do|did)$/;

/** Subject and event of a trigger text: "a deal in HubSpot moves to Closed Won" → deal / move. */
/**
 * "When finance moves that Jira issue to Done" said of the item ("When that Jira issue moves to Done"),
 * so that the item is the event's subject and its target status reads as for any transition; a case said before
 * the person who moves it ("If they sign up, Mel moves their deal to Member") is what leads to the move, not the
 * event. Pure.
 */
const SOMEONE_MOVES =
  /^(?:(?:if|when|once|after)\s[^,]{1,60},\s*)?((?:when(?:ever)?|once|after|if|as soon as)\s+)?(?:someone|anyone|[\w-]+(?: [\w-]+)?) (moves?|drags?|transitions?|closes?|resolves?|bumps?|escalates?|reopens?|assigns?|marks?|flags?) ((?:that|the|a|an|any|each|every|our|their|this) (?:[\w-]+ ){0,2}?(?:issue|ticket|deal|task|card|story|bug|request|opportunity)s?)\b/i;
/** "(those arrive as Zendesk tickets)", ", which come in as Jira issues": what the work arrives as, wherever it is sent. */
const ARRIVES_AS =
  /[(,]\s*(?:those|these|they|which|that|it|all of them|each)\s+(?:all\s+)?(?:arrive|arrives|come in|comes in|land|lands|show up|shows up|end up|ends up|turn up|come through|are logged|get logged|become)\s+(?:here\s+)?as\s+((?:an?\s+)?(?:new\s+)?[A-Z][\w-]*\s+[\w-]+)/;

/**
 * What the work arrives as, when a product's items stand for how it was sent: "If a customer emails the box office
 * (those arrive as Zendesk tickets)" → "a new Zendesk ticket". Not a kind of file ("they come in as PDF
 * attachments") nor an event of its own ("a client pays, which shows up as a Stripe payment"). Pure.
 */
function arrivesAs(text: string): string {
  const m = ARRIVES_AS.exec(text);
  if (!m?.[1] || !providersIn(m[1]).some((p) => !p.weak)) return text;
  if (!SENT_BY_CHANNEL.test(text.slice(0, m.index))) return text;
  return m[1].replace(/^(?:an?\s+)?(?:new\s+)?/i, 'a new ');
}
const SENT_BY_CHANNEL =
  /\b(?:e-?mails?|e-?mailed|writes?|texts?|texted|messages?|calls?|phones?|fills?|submits?|sends?|posts?|forwards?)\b/i;

export const saidOfTheItem = (text: string): string =>
  arrivesAs(text)
    // "a deal goes to Installed", "that Jira bug went to 'Done'": an item going to a named status moves there
    // (not to a product, "a lead goes to HubSpot", nor to a level, "goes to Tier 2")
    .replace(/\b(?:goes|went|gone)\s+to\s+(["'][^"']+["']|[A-Z][\w-]*\b)(?!\s*\d)/g, (whole, status: string) =>
      providersIn(status).length > 0 || /^(?:tier|level|line|stage)$/i.test(status) ? whole : `moves to ${status}`,
    )
    // "Priya approves it by moving the deal to "Match approved"": what someone does by moving an item is the item moving
    .replace(
      /^((?:when(?:ever)?|once|after|if|as soon as)\s+)?[^,;()"]{1,80}?\bby\s+(?:moving|dragging|setting|changing|putting|switching)\s+((?:the|a|an|that|this|their|its)\s+(?:[\w-]+\s+){0,2}?(?:deal|ticket|issue|card|task|opportunity|story|bug|request)s?)\s+(?:to|into)\s+/i,
      (_whole, lead: string | undefined, item: string) => `${lead ?? ''}${item} moves to `,
    )
    .replace(SOMEONE_MOVES, (_whole, lead: string | undefined, verb: string, item: string) => {
      // an item dragged on a board is an item moved
      const said = /^drags?$/i.test(verb) ? 'moves' : verb;
      return `${lead ?? ''}${item} ${said.toLowerCase().endsWith('s') ? said : `${said}s`}`;
    });

/** The one-word events of every trigger that name no subject of one: "arrive", "come", "fail" (not "email", "request"). */
const EVENT_WORDS = (() => {
  const senses = Object.values(ALL_TRIGGER_SENSES);
  const subjects = new Set(senses.flatMap((s) => [...s.subjects, ...(s.weakSubjects ?? [])]));
  return [...new Set(senses.flatMap((s) => s.events))].filter((e) => !e.includes(' ') && !subjects.has(e));
})();

/** Every one-word event of every trigger. */
const ANY_EVENT = [...new Set(Object.values(ALL_TRIGGER_SENSES).flatMap((s) => s.events))].filter((e) => !e.includes(' '));
/** People, in the plural, as the subject of an event. */
const PEOPLE_DOING =
  /^(?:(?:our|the|any|some|other)\s+)?(?:people|users|customers|clients|staff|employees|members|folks|teammates|colleagues|engineers|agents|students|parents|patients|guests|tenants|they|we)$/;

/** Anybody, as the subject of an event: "someone", "people", "users". */
const SOMEONE_DOING = new RegExp(`^(?:someone|somebody|anyone|anybody|everyone|${PEOPLE_DOING.source.slice(1, -1)})$`);

/** Words of how or when between an event's subject and its verb. */
const HOW =
  /^(?:fully|finally|actually|automatically|eventually|successfully|completely|properly|formally|officially|already|just|really|again|first)$/;

const DURATION_UNIT = /^(?:minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|months?)$/;
const isCount = (w: string): boolean => /^\d+$/.test(w) || w in NUMBER_WORDS || w === 'a' || w === 'an';

function parseEvent(text: string): { subject: string; event: string; rest: string } {
  const t = text.toLowerCase().replace(LEAD, '');
  const tokens = tokenize(t);
  let i = 0;
  const subject: string[] = [];
  for (; i < tokens.length; i++) {
    const w = tokens[i]?.lower ?? '';
    if (AUXILIARY.test(w)) break;
    // "Agreement fully signed", "the contract finally comes back": a word of how is no part of the subject
    if (subject.length > 0 && HOW.test(w)) continue;
    if (/^(that|which|who)$/.test(w) && subject.length > 0) {
      // "questions that come in as Slack DMs": the relative clause carries the event
      i++;
      break;
    }
    // "when a case email comes", "… come": a verb of an event, last, is the event, not a plural noun
    if (subject.length > 0 && i === tokens.length - 1 && isWord(w, EVENT_WORDS)) break;
    // "people mention @itbot", "users report a bug": people, in the plural, then what they do
    // (and "if somebody mention @StarBot": a writer who drops the verb's -s)
    if (subject.length > 0 && SOMEONE_DOING.test(subject.join(' ')) && isWord(w, ANY_EVENT)) break;
    if (
      i > 0 &&
      /(s|ed)$/.test(w) &&
      !/(ss|us|['’]s)$/.test(w) &&
      subject.length > 0 &&
      !/^(new|each|every|a|an|the)$/.test(tokens[i - 1]?.lower ?? '')
    ) {
      // "a candidate applies", "someone emails" — unless a plural noun of the subject ("new Zendesk tickets")
      const next = tokens[i + 1]?.lower ?? '';
      // "a homeowner's dues invoice is overdue": a noun before the subject's head, which the verb follows
      const nounBefore = AUXILIARY.test(tokens[i + 2]?.lower ?? '') && !/ed$/.test(w);
      if (next && !nounBefore && !/^(in|from|on|to|of|with|for|that|which|who)$/.test(next)) break;
      if (/ed$/.test(w) || /^(in|from|on|to|with|for)$/.test(next)) break;
    }
    subject.push(w);
  }
  while (i < tokens.length && AUXILIARY.test(tokens[i]?.lower ?? '')) i++;
  // "an invoice is 14 days overdue", "a ticket has been two days unanswered": how long is no part of the event
  if (isCount(tokens[i]?.lower ?? '') && DURATION_UNIT.test(tokens[i + 1]?.lower ?? '')) i += 2;
  const event = tokens[i]?.lower ?? '';
  const cut = subject.findIndex((w) => /^(in|on|from|of|for|with|at)$/.test(w));
  const head = (cut >= 0 ? subject.slice(0, cut) : subject).filter(
    (w) => !/^(a|an|the|new|each|every|any|our|their|her|his|one)$/.test(w),
  );
  return {
    subject: head.join(' '),
    event,
    rest: tokens
      .slice(i + 1)
      .map((x) => x.lower)
      .join(' '),
  };
}

/** Multi-word subjects of every trigger ("pull request"): a sense's one-word subject inside one does not count. */
const COMPOUND_SUBJECTS = [
  ...new Set(Object.values(ALL_TRIGGER_SENSES).flatMap((s) => [...s.subjects, ...(s.weakSubjects ?? [])])),
].filter((s) => s.includes(' '));
const headOf = (subject: string, term: string): boolean => {
  if (!hasTerm(subject, term) || !new RegExp(`${term.split(' ').pop()}\\w*$`).test(subject)) return false;
  return !COMPOUND_SUBJECTS.some((c) => c !== term && c.endsWith(` ${term}`) && hasTerm(subject, c));
};
const inside = (text: string, term: string): boolean =>
  hasTerm(text, term) &&
  !COMPOUND_SUBJECTS.some((c) => c !== term && c.includes(term) && !term.includes(' ') && hasTerm(text, c));

/** True when only one product's triggers happen by this verb ("paid", "signed"; not "reports", "comes in"). */
const soleProductOf = (() => {
  const known = new Map<string, boolean>();
  return (event: string): boolean => {
    let sole = known.get(event);
    if (sole === undefined) {
      const products = Object.entries(ALL_TRIGGER_SENSES)
        .filter(([, sense]) => sense.events.some((e) => isWord(event, [e])))
        .map(([id]) => providerOf(id));
      sole = new Set(products).size === 1;
      known.set(event, sole);
    }
    return sole;
  };
})();

/**
 * `said`: the start says what happens to the trigger's thing — its event verb with its subject or product, or a verb
 * only one product's events have, or a whole phrase of it — not only the thing
 */
type TriggerScore = { id: string; score: number; ok: boolean; subject: number; provider: number; said: boolean };

function scoreTrigger(t: CatalogTrigger, text: string, connected: ReadonlySet<string>): TriggerScore {
  const sense = TRIGGER_SENSES[t.id] ?? derivedTriggerSense(t);
  const lower = text.toLowerCase();
  const { subject, event, rest } = parseEvent(text);
  let subj = 0;
  const saying = (sense.sayings ?? []).some((re) => re.test(lower));
  if (sense.subjects.some((s) => headOf(subject, s))) subj = 2.5;
  else if (saying || sense.subjects.some((s) => inside(lower, s))) subj = 1;
  else if ((sense.weakSubjects ?? []).some((s) => inside(lower, s))) subj = 1;
  let ev = 0;
  if (event && sense.events.some((e) => isWord(event, [e]) || (e.includes(' ') && hasTerm(`${event} ${rest}`, e)))) ev = 2;
  else if (sense.events.some((e) => inside(rest, e))) ev = 1;
  const phrase = saying || (sense.phrases ?? []).some((re) => re.test(lower)) ? 3 : 0;
  const named = namedProviders(text);
  const strong = named.get(t.providerId);
  let provider = strong === true ? 2.5 : strong === false ? 0.5 : 0;
  if (!strong && [...named.values()].some(Boolean)) provider -= 1.5;
  let cue = 0;
  if (t.providerId === 'slack' && channelsIn(lower).length) cue = 1.5;
  // ("opens an issue on `payments-sdk-js`": a name in code quotes, where the event happens, is a repository's)
  else if (t.providerId === 'github' && /\b(?:on|in|to|against)\s+`[\w./-]+`/.test(lower)) cue = 1.5;
  else if ((PROVIDER_CUES[t.providerId] ?? []).some((c) => hasTerm(lower, c))) cue = 1;
  // (new things, or things of a kind said by what they say: "tickets that mention a refund" are tickets coming in)
  const fresh = sense.creation && (/\bnew\b/.test(lower) || KIND_BY_CLAUSE.test(lower)) ? 0.5 : 0;
  const score = subj + ev + phrase + provider + cue + fresh + (connected.has(t.providerId) ? 0.25 : 0);
  // (a mention is Slack's only where said as such or of Slack: "tickets that mention a refund" mention nobody)
  const mentionOfAThing = t.id === 'slack.mention' && phrase === 0 && provider <= 0 && cue === 0;
  const ok =
    score >= MIN_SCORE && (subj > 0 || phrase > 0 || provider > 0) && (ev > 0 || phrase > 0 || fresh > 0) && !mentionOfAThing;
  // (a verb of this product's alone tells without its subject: "the IO comes back fully signed", "subs are paid")
  const telling = sense.events.some(
    (e) => soleProductOf(e) && (isWord(event, [e]) || (e.includes(' ') && hasTerm(`${event} ${rest}`, e)) || inside(rest, e)),
  );
  const said = phrase > 0 || (ev === 2 && (subj > 0 || provider > 0)) || (ev > 0 && telling);
  return { id: t.id, score, ok, subject: subj, provider, said };
}

/** True when a text reads as a known kind of event (subject and event both recognised), catalog aside. */
export function describesEvent(text: string): boolean {
  const lower = text.toLowerCase();
  const { subject, event, rest } = parseEvent(text);
  return Object.values(ALL_TRIGGER_SENSES).some((sense) => {
    const saying = (sense.sayings ?? []).some((re) => re.test(lower));
    if (saying) return true;
    const phrase = (sense.phrases ?? []).some((re) => re.test(lower)) && !sense.phrases?.every((re) => re.source.includes('#'));
    const subj = sense.subjects.some((s) => headOf(subject, s));
    const ev = !!event && sense.events.some((e) => isWord(event, [e]) || (e.includes(' ') && hasTerm(`${event} ${rest}`, e)));
    // "someone mentions @itbot", "people mention @itbot": a person doing it, the event and the words that say it
    return (subj && (ev || phrase)) || (ev && phrase && SOMEONE_DOING.test(subject));
  });
}

const titleCase = (s: string): string => s.replace(/\b[a-z]/g, (c) => c.toUpperCase());

function quotedOrCapitalised(text: string, after: RegExp): string | undefined {
  const m = text.match(
    new RegExp(
      `${after.source}\\s+(?:the\\s+)?(?:stage\\s+|status\\s+|column\\s+)?(?:"([^"]+)"|'([^']+)'|([A-Z][\\w-]*(?:\\s+[A-Z][\\w-]*)*))`,
    ),
  );
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
}

/** Parameters for a trigger, read off the text and valid against the trigger's schema. */
export function triggerParams(triggerId: string, text: string): Record<string, string | number> {
  const lower = text.toLowerCase();
  const p: Record<string, string | number> = {};
  const channel = channelsIn(text)[0];
  switch (triggerId) {
    case 'hubspot.deal_stage_changed':
    case 'salesforce.opportunity_stage_changed': {
      const won =
        lower.match(/\bclosed[ -](won|lost)\b/) ??
        lower.match(/\b(?:is|gets|was)(?: (?:marked|set|moved)(?: as| to)?)? (won|lost)\b/);
      const stage = won
        ? `Closed ${titleCase(won[1] ?? '')}`
        : quotedOrCapitalised(
            text,
            /\b(?:moves?|moved|changes?|changed|goes|gone|reaches|reached|enters|entered|advances|advanced|progresses|progressed|is set|gets)\s+(?:(?:the|their|a|an|this|that|its|his|her) (?:[\w-]+ )?(?:deal|opportunity|opp)s? )?(?:(?:in|on) [A-Z][\w-]* )?(?:in)?to/,
          );
      // ("when an opp hits Negotiation", "reaches "Proposal"": the stage named right after)
      const reached = stage ?? (won ? undefined : quotedOrCapitalised(text, /\b(?:hits?|reach(?:es|ed)?|enter(?:s|ed)?)/));
      if (reached) p.stage = reached;
      break;
    }
    case 'jira.issue_transitioned': {
      const to = quotedOrCapitalised(text, /\b(?:moved|moves|transitioned|transitions|changed|set)\s+to/);
      const state = lower.match(/\b(?:is|gets|are|get)\s+(resolved|closed|done|completed|fixed|reopened|shipped|released)\b/);
      if (to) p.toStatus = to;
      else if (state?.[1]) p.toStatus = titleCase(state[1] === 'completed' ? 'done' : state[1]);
      const project = text.match(/\b(?:in|to) the ([A-Z][A-Z0-9]+) (?:project|board)\b/);
      if (project?.[1]) p.project = project[1];
      break;
    }
    case 'jira.issue_created': {
      const project = text.match(/\b(?:in|to) the ([A-Z][A-Z0-9]+) (?:project|board)\b/);
      if (project?.[1]) p.project = project[1];
      if (/\bbugs?\b/.test(lower)) p.issueType = 'Bug';
      break;
    }
    case 'zendesk.new_ticket':
    case 'zendesk.ticket_updated': {
      const priority = lower.match(/\b(urgent|high|low|normal)(?:[- ]priority)?\b/);
      if (priority?.[1] && (priority[1] === 'urgent' || /priority/.test(priority[0]))) p.priority = priority[1];
      if (triggerId === 'zendesk.ticket_updated') {
        const status = lower.match(/\b(solved|pending|closed|reopened|on hold|open)\b/);
        if (status?.[1]) p.status = status[1] === 'reopened' ? 'open' : status[1] === 'on hold' ? 'hold' : status[1];
      }
      const tag = lower.match(/\btagged (?:as |with )?["']?([\w-]+)/);
      if (tag?.[1] && triggerId === 'zendesk.new_ticket') p.tag = tag[1];
      break;
    }
    case 'slack.new_message':
      if (channel) p.channel = channel;
      break;
    case 'slack.mention': {
      if (channel) p.channel = channel;
      const handle = handlesIn(text)[0];
      if (handle) p.handle = handle;
      break;
    }
    case 'gmail.new_email': {
      const from = text.match(/\bfrom\s+([\w.+-]+@[\w-]+\.[\w.]+|@?[\w-]+\.[a-z]{2,})/i);
      if (from?.[1]) p.from = from[1];
      const subject = text.match(
        /\bsubject\s+(?:contains|containing|including|with)\s+["']([^"']+)["']|\bwith\s+["']([^"']+)["']\s+in the subject/i,
      );
      if (subject) p.subjectContains = subject[1] ?? subject[2] ?? '';
      const label = text.match(/\blabel(?:l?ed)?\s+["']?([\w-]+)["']?/i);
      if (label?.[1]) p.label = label[1];
      break;
    }
    case 'google-calendar.event_starting': {
      const m = beforeMeeting(text);
      if (m) p.minutesBefore = m.minutes;
      break;
    }
    case 'github.issue_opened':
    case 'github.pull_request_opened': {
      const repo = text.match(/\b([\w-]+\/[\w.-]+)\b/);
      if (repo?.[1]) p.repository = repo[1];
      const label = text.match(/\bwith the ["']?([\w-]+)["']? label\b|\blabel(?:l?ed)?\s+["']?([\w-]+)["']?/i);
      if (label && triggerId === 'github.issue_opened') p.label = label[1] ?? label[2] ?? '';
      break;
    }
    case 'google-drive.file_added': {
      // (a quoted name first, before the product's: "the "DBS Certificates" Drive folder")
      const folder =
        text.match(/["“]([^"”]{1,60})["”]\s+(?:(?:google\s+)?drive\s+)?folder\b/i) ??
        text.match(/\b(?:the\s+)?["']?([A-Z][\w-]*(?:\s+[A-Z][\w-]*)*)["']?\s+folder\b|\bfolder\s+["']([^"']+)["']/);
      if (folder) p.folder = folder[1] ?? folder[2] ?? '';
      break;
    }
    case 'webhook.incoming_webhook': {
      const path = text.match(/(?:^|\s)(\/[\w/-]+)/);
      const form = lower.match(/\b(?:the |our )?([\w-]+(?:-[\w]+)*) form\b/);
      if (path?.[1]) p.path = path[1];
      else if (
        form?.[1] &&
        !/^(a|the|our|web|online|access|contact|google|microsoft|typeform|jotform|hubspot|tally|this|that|application|signup|sign-up)$/.test(
          form[1],
        )
      )
        p.path = `/${form[1].replace(/[^\w-]+/g, '-')}`;
      break;
    }
    case 'stripe.payment_failed':
    case 'stripe.invoice_paid': {
      // ("over $2k", "above €1.5k", "more than 500"): the amount as said, thousands spelled out
      const amount = text.match(/\b(?:over|above|more than|at least)\s+[$€£]?(\d[\d,]*(?:\.\d+)?)(k\b)?/i);
      if (amount?.[1]) p.minAmount = Math.round(Number(amount[1].replace(/,/g, '')) * (amount[2] ? 1000 : 1));
      break;
    }
    case 'quickbooks.invoice_overdue': {
      const days = lower.match(/\b(\d+)\s+days?\s+(?:overdue|past due|late)\b/);
      if (days?.[1]) p.daysOverdue = Number(days[1]);
      break;
    }
    case 'bamboohr.new_hire': {
      const dept = text.match(/\bin (?:the )?([A-Z][\w&-]*(?:\s+[A-Z][\w&-]*)*) (?:department|team)\b/);
      if (dept?.[1]) p.department = dept[1];
      break;
    }
    case 'greenhouse.candidate_applied': {
      const job = text.match(/\bfor (?:an? |the |our )?([\w -]{2,40}?) (?:role|job|position|opening)\b/i);
      if (job?.[1]) p.job = job[1];
      break;
    }
    default:
      break;
  }
  return p;
}

const REQUIRED_MISSING_PENALTY = 0.6;

/** Maps what starts a workflow to a catalog trigger, with parameters. */
/** Things of a kind, told by what they say or ask: "tickets that mention a refund", "emails which ask for a quote". */
const KIND_BY_CLAUSE =
  /^(?:(?:if|when|for)\s+)?(?:(?:all|any|every|each)\s+)?(?:[a-z][\w-]*\s+)?[a-z][\w-]*s?\s+(?:that|which)\s+(?:mentions?|asks?|contains?|includes?|says?|talks? about|refers? to|comes? from)\b/;
/** Each item of a kind, told apart by how it is marked or where from: "for every Zendesk ticket tagged bug". */
const EACH_OF_A_KIND =
  /^(?:(?:for|when|if)\s+)?(?:all|any|every|each)\s+(?:new\s+)?(?:[A-Z][\w-]*\s+)?[a-z][\w-]*\s+(?:tagged|labell?ed|marked|from|with|over|under|above|below|mentioning|containing)\b/i;
/** Items of a kind, said with no verb: "if urgent tickets", "when high-priority bugs". */
const ITEMS_ALONE =
  /^(?:if|when|whenever|for)\s+(?:(?:all|any|every|each)\s+)?(?:[a-z][\w-]*\s+){0,3}(?:tickets|issues|bugs|leads|contacts|deals|e-?mails|messages|texts|orders|payments|invoices|bookings|applications|applicants|candidates|requests|enquiries|inquiries|sign-?ups|submissions|reviews|complaints|hires|files|documents|contracts|prs|pull requests|opportunities|opps|refunds|returns|claims|questions|comments|replies|responses|dms)$/i;

/** A time of each thing's own date: "the morning of each trip", "the day before every booking". */
const OF_EACH_THING =
  /\b(?:morning|afternoon|evening|night|day|week|month)s?\s+(?:of|before|after|ahead of)\s+(?:each|every|any|the|a|an|their|its)\b/i;
/** Someone or something first: an event is said, and a time after it is its condition ("a delivery arrives before 9am"). */
const SUBJECT_FIRST =
  /^(?:a|an|the|this|that|these|those|some|any|every|each|our|their|his|her|its|my|your|someone|somebody|anyone|anybody|everyone|they|we|i|you|he|she|it)\b/i;

/** An nth weekday of a month: "the 1st and 3rd Monday". */
const NTH_WEEKDAY = new RegExp(String.raw`\b\d{1,2}(?:st|nd|rd|th)\b.*\b${DAY}s?\b`, 'i');

/** The schedule a start opens with, before its first comma or bracket: "At lunchtime, …", "Thursdays 9ish (…)". */
function timeFirst(text: string): ReturnType<typeof parseSchedule> {
  const rest = text.trim().replace(/^(?:(?:and|also|then|so|but)\s+)?(?:(?:when|whenever|if|once)\s+)?/i, '');
  const first = rest.split(/[,(;]|:\s|\s[-–—]\s/)[0] ?? '';
  // (and not "On the 1st and 3rd Monday": the nth weekday of a month is no day of every month)
  if (!/^[a-z0-9]/i.test(first) || SUBJECT_FIRST.test(first) || NTH_WEEKDAY.test(first)) return null;
  return parseSchedule(first.split(/\s+/).slice(0, 5).join(' '));
}

/** How often things happen, not when to act: "most mornings the inbox has …", "some days". */
const HOW_OFTEN_IT_HAPPENS =
  /\b(?:most|some|many|few|several|other)\s+(?:mornings|afternoons|evenings|nights|days|weekdays|weeks|weekends|months)\b/i;

export function matchTrigger(workflow: DraftWorkflow, catalog: Catalog): TriggerMatch {
  const { kind } = workflow.triggerHint;
  // someone moving an item is said of the item, once, for scoring and for the parameters alike
  const whole = saidOfTheItem(workflow.triggerHint.text);
  // (the start's setting the segmenter wrote, "When an order is refunded (in Shopify)", is weighed only as where it may
  // happen, never scored as its words)
  const text = withoutHome(whole);
  const homeSaid = text !== whole;
  const connected = new Set(catalog.connected);
  const has = (id: string): CatalogTrigger | undefined => catalog.triggers.find((t) => t.id === id);
  if (kind === 'schedule') {
    const cron = has('schedule.cron');
    const parsed = parseSchedule(text);
    if (cron && parsed) {
      const params: Record<string, string> = { expression: parsed.expression };
      if (parsed.timezone) params.timezone = parsed.timezone;
      return { triggerId: cron.id, params, confidence: round(parsed.confidence), alternatives: [] };
    }
    return { triggerId: null, params: {}, confidence: 0.2, alternatives: cron ? [cron.id] : [] };
  }
  if (kind === 'manual' || !text.trim()) {
    const hook = has('webhook.incoming_webhook');
    return { triggerId: null, params: {}, confidence: kind === 'manual' ? 0.6 : 0.1, alternatives: hook ? [hook.id] : [] };
  }
  const scored = catalog.triggers
    .filter((t) => t.id !== 'schedule.cron')
    .map((t) => scoreTrigger(t, text, connected))
    .sort((a, b) => b.score - a.score);
  const best = scored.find((s) => s.ok);
  // "if a ticket sits for a day with no agent reply": nothing happening for a while is no product's event (an
  // overdue invoice aside), so the work looks for it on a schedule — hourly for hours, daily for longer
  const lapse = lapseIn(text);
  const cron = has('schedule.cron');
  // (an invoice left unpaid is the one absence a product reports: "still unpaid after 14 days" is it overdue)
  const unpaid =
    /\b(?:invoices?|bills?)\b/i.test(text) &&
    /\b(?:unpaid|overdue|outstanding|past due|not (?:been )?paid|hasn['’]t (?:been )?paid)\b/i.test(text);
  // (unless it is another product's invoice: "a Stripe invoice still unpaid after 14 days")
  const elsewhere = providersIn(text).some((m) => !m.weak && m.providerId !== 'quickbooks');
  if (unpaid && !elsewhere && !best && has('quickbooks.invoice_overdue') && lapse)
    return {
      triggerId: 'quickbooks.invoice_overdue',
      params: triggerParams('quickbooks.invoice_overdue', text),
      confidence: 0.5,
      alternatives: [],
    };
  if (lapse && cron && !unpaid) {
    const span = lapse.slice(1).find(Boolean) ?? '';
    const expression = /\b(?:h|hrs?|hours?)$/i.test(span.trim()) ? '0 * * * *' : '0 9 * * *';
    return { triggerId: cron.id, params: { expression }, confidence: 0.5, alternatives: best ? [best.id] : [] };
  }
  const alternatives = scored
    .filter((s) => s.score >= 2 && s.id !== best?.id)
    .slice(0, 3)
    .map((s) => s.id);
  // "Each report (Staff report problems in the #setting-crew Slack channel)": a start that names no event of its own,
  // said with the arrival it points back at (the segmenter's context, in brackets), is that arrival
  const context = best || homeSaid ? undefined : contextOf(workflow.triggerHint.text);
  if (context) {
    const arrival = matchTrigger({ ...workflow, triggerHint: { kind, text: context } }, catalog);
    if (arrival.triggerId && arrival.triggerId !== cron?.id) return arrival;
  }
  if (!best) {
    // the hand table knows no trigger here: the catalog's vocabulary may ("employees write in #time-off")
    // "every new inbound lead": something new appearing needs no verb
    // (and a kind of items said alone, a start of their own: "- urgent tickets -> post them in #support-urgent")
    const alone = ITEMS_ALONE.test(text.trim()) || EACH_OF_A_KIND.test(text.trim());
    const fresh = /\bnew\b/i.test(text) || alone;
    const hit = rankByVocabulary(
      text,
      catalog.triggers.filter((t) => t.id !== 'schedule.cron'),
      {
        connected,
        // (items said alone are the things that come, however the vocabulary reads their noun: "incoming texts")
        accept: (h) =>
          (h.verb && h.object) ||
          (fresh &&
            isArrivalTrigger(h.id) &&
            (h.object || (alone && (TRIGGER_SENSES[h.id]?.subjects ?? []).some((w) => hasTerm(text.toLowerCase(), w))))),
      },
    )[0];
    // (not a like event of a product the start does not name, when it names one outside the catalog)
    if (hit && !happensElsewhere(whole, hit.id, catalog)) {
      const params = triggerParams(hit.id, text);
      const required = has(hit.id)?.paramsSchema.required ?? [];
      const confidence = required.some((r) => !(r in params)) ? 0.3 : 0.5;
      return { triggerId: hit.id, params, confidence, alternatives, providerId: hit.providerId };
    }
    // no trigger fits, but the event may still clearly live in one product ("a pull request is merged")
    const home = scored.find((s) => s.subject >= 2.5 || s.provider >= 2.5);
    const outside = outsideProductOf(whole, catalog);
    // no event fits and no product outside the catalog is named, but the start opens with a time of its own ("At
    // lunchtime, have a look through the inbox", "Thursdays 9ish"): it runs on that schedule — not a time of each
    // thing ("the morning of each trip"), how often things happen ("most mornings the inbox has …"), or a time said
    // of an event ("if a delivery arrives before 9am")
    const clock = cron && !outside && !OF_EACH_THING.test(text) && !HOW_OFTEN_IT_HAPPENS.test(text) && timeFirst(text);
    if (clock && clock.confidence >= 0.7) {
      const params: Record<string, string> = { expression: clock.expression };
      if (clock.timezone) params.timezone = clock.timezone;
      return { triggerId: cron.id, params, confidence: 0.5, alternatives };
    }
    // (a product named outright is where it happens, over one guessed from the thing: "After each Calendly booking")
    if (outside && !(home && home.provider >= 2.5))
      return { triggerId: null, params: {}, confidence: 0.15, alternatives, providerId: outside };
    return { triggerId: null, params: {}, confidence: 0.15, alternatives, providerId: home ? providerOf(home.id) : null };
  }
  // a start in a product outside the catalog ("a maintenance request comes in through AppFolio", "an invoice is paid in
  // Xero") is that product's event, not a like one of a product it does not name: no trigger fits and the product is
  // missing; a webhook, how an outside system reaches an employee, is offered first (a webhook's start keeps it)
  const outsider = happensElsewhere(whole, best.id, catalog);
  if (outsider) {
    const hook = has('webhook.incoming_webhook');
    return {
      triggerId: null,
      params: {},
      confidence: 0.15,
      alternatives: [...new Set([...(hook ? [hook.id] : []), best.id, ...alternatives])].slice(0, 5),
      providerId: outsider,
    };
  }
  const trigger = has(best.id);
  const params = triggerParams(best.id, text);
  const missing = (trigger?.paramsSchema.required ?? []).some((r) => !(r in params));
  const runnerUp = scored.find((s) => s.id !== best.id)?.score ?? 0;
  let confidence = Math.min(0.95, 0.3 + 0.07 * best.score) * (best.score - runnerUp < 1 ? 0.85 : 1);
  if (missing) confidence *= REQUIRED_MISSING_PENALTY;
  return { triggerId: best.id, params, confidence: round(clamp(confidence)), alternatives, providerId: providerOf(best.id) };
}

/** Capability and trigger matches for one workflow; pure and deterministic. */
/** A clause that points back at the place of the one before: "post it there", "add them in it". */
const PLACE_AGAIN = /\b(there|in it|into it|in that (one|tool|app|space|channel|board))\b/i;

export function matchWorkflow(workflow: DraftWorkflow, catalog: Catalog): CapabilityMatch {
  const trigger = matchTrigger(workflow, catalog);
  const steps = matchSteps(workflow, catalog, trigger.triggerId ? providerOf(trigger.triggerId) : null);
  const { kind } = workflow.triggerHint;
  if (trigger.triggerId !== null || (kind !== 'event' && kind !== 'unknown')) return { workflowId: workflow.id, trigger, steps };
  // a start no trigger fits, or none said: the one its work points to is offered first, and a step that answers is
  // read as answering what comes from it ("reply with the price list" on the ticket that came in, when the work tags
  // it; "label the email as handled" after return requests become tickets, when no start is said)
  // (with no start said, an answer says too little of what came: "Reply to each" after "Our website's contact form
  // sends us enquiries" is no ticket's)
  const alternatives = startsTheWorkPoints(workflow, trigger, steps, catalog, kind === 'event');
  const pointed = alternatives[0] ? providerOf(alternatives[0]) : null;
  // (a webhook's start says nothing of where an answer goes)
  const answering = pointed && pointed !== 'webhook' ? matchSteps(workflow, catalog, pointed) : steps;
  return {
    workflowId: workflow.id,
    trigger: { ...trigger, alternatives },
    steps: steps.map((m, i) => (ANSWERING.test(workflow.steps[i]?.text.trim() ?? '') ? (answering[i] ?? m) : m)),
  };
}

/** Each step of a workflow matched in order, each with the products of the start and of the step before. */
function matchSteps(workflow: DraftWorkflow, catalog: Catalog, triggerProvider: string | null): StepMatch[] {
  const ctx: Ctx = {
    triggerProvider,
    prevProvider: null,
    connected: new Set(catalog.connected),
    said: new Set((workflow.unconnected ?? []).map((u) => u.providerId)),
  };
  const steps: StepMatch[] = [];
  let outside: string | null = null;
  for (const step of workflow.steps) {
    // "… in Microsoft Teams and post the checklist there": a place said again is the product named before
    const m: StepMatch =
      outside && PLACE_AGAIN.test(step.text) && providersIn(step.text).every((p) => p.weak)
        ? { stepId: step.id, capabilityId: null, providerId: outside, confidence: 0.3, candidates: [] }
        : matchStep(step, catalog, ctx);
    steps.push(m);
    if (m.providerId) ctx.prevProvider = m.providerId;
    ctx.prevCapability = m.capabilityId;
    outside = m.capabilityId === null && m.providerId && !inCatalog(catalog, m.providerId) ? m.providerId : null;
  }
  return steps;
}

/** Capability verbs that act on something already there: the item was given by the start, not made by the step. */
const ON_WHAT_IS_THERE = new Set(['update', 'reply', 'label', 'transition', 'comment', 'merge', 'move', 'cancel', 'share']);
/** A step that answers what came: "reply with the nearest free slot", "write back", "text them back". */
const ANSWERING = /^(?:reply|respond|answer|write back|text (?:them |him |her )?back|email (?:them |him |her )?back)\b/i;
/** A start said as a thing's state changing ("goes to 'Done'", "is set to Vacant", "reopened"), not as its arrival. */
const CHANGE_SAID =
  /\b(?:(?:flip|switch|bump|set|change|mark|move|turn|put)(?:s|es|ped|ed|ing)?\b[^.;,]{0,40}?\bto (?:["“'‘]|[A-Z])|(?:go(?:es|ing)?|went|mov(?:es|ed|ing)|(?:is|are|gets?|got) (?:set|changed)|changes|turn(?:s|ed)?) (?:in)?to (?:status |stage |the stage |the status )?(?:["“'‘]|[A-Z])|(?:status|stage) (?:is |gets? )?(?:set|changed|moved)|reopen(?:s|ed)?|(?:is|are|gets?|got) (?:updated|marked))/;

/**
 * The catalog triggers to offer, best first, for an event start no trigger fits ("For each request", "When patron
 * asks to swap"): the triggers of a product the start names; what its words scored, down to the last that says what
 * happens; those of the item the work acts on as something already there ("tag the ticket", "share that folder" —
 * unless an earlier step of that product made it); those of the item a step answers ("reply with …"); then the rest
 * its words scored. A start said as a change prefers a product's change triggers to its arrivals. Pure.
 */
function startsTheWorkPoints(
  workflow: DraftWorkflow,
  trigger: TriggerMatch,
  steps: readonly StepMatch[],
  catalog: Catalog,
  answers = true,
): string[] {
  const events = catalog.triggers.filter((t) => t.id !== 'schedule.cron');
  const connected = new Set(catalog.connected);
  const lead = withoutHome(saidOfTheItem(workflow.triggerHint.text));
  // (what the start's words scored, down to the last that says what happens, goes first; a thing alone, "For each
  // request", gives way to the work)
  const said = trigger.alternatives.slice(
    0,
    1 +
      trigger.alternatives.findLastIndex((id) => {
        const t = events.find((e) => e.id === id);
        return t !== undefined && scoreTrigger(t, lead, connected).said;
      }),
  );
  const changing = CHANGE_SAID.test(workflow.triggerHint.text);
  const isCreation = (t: CatalogTrigger): boolean => (TRIGGER_SENSES[t.id] ?? derivedTriggerSense(t)).creation === true;
  const byKind = (ts: CatalogTrigger[]): CatalogTrigger[] =>
    [...ts].sort((a, b) => Number(isCreation(a) === changing) - Number(isCreation(b) === changing));
  // (a product said however loosely: "by SMS" is Twilio's)
  const products = new Set(providersIn(workflow.triggerHint.text).map((m) => m.providerId));
  // (in the order its words scored them, "Regularly update deals in HubSpot" a deal's change first, unless said as a
  // change)
  const scoredAt = (t: CatalogTrigger): number => {
    const at = trigger.alternatives.indexOf(t.id);
    return at < 0 ? trigger.alternatives.length : at;
  };
  const ofProduct = events.filter((t) => products.has(t.providerId)).sort((a, b) => scoredAt(a) - scoredAt(b));
  const named = (changing ? byKind(ofProduct) : ofProduct).map((t) => t.id);
  const itemOf = (id: string): string | undefined => {
    const c = catalog.capabilities.find((x) => x.id === id);
    return c && (c.vocabulary ?? catalogVocabulary(c.id))?.objects[0];
  };
  // (what an earlier step of a product made is what its later steps act on: "create a folder … share it"; a step on
  // the thing itself, "tag the ticket", tells more than an answer whose product was guessed, "reply with the price")
  const made = new Set<string>();
  const actedOn: string[] = [];
  const answered: string[] = [];
  workflow.steps.forEach((step, i) => {
    const id = steps[i]?.capabilityId;
    if (!id) return;
    const item = itemOf(id);
    const provider = providerOf(id);
    const verb = id.slice(provider.length + 1).split('_')[0] ?? '';
    const answer = ANSWERING.test(step.text.trim());
    const onIt = ON_WHAT_IS_THERE.has(verb);
    if (item && !made.has(provider) && (answers || !answer) && (onIt || answer))
      (onIt ? actedOn : answered).push(
        ...byKind(
          events.filter(
            (t) => t.providerId === provider && ((t.vocabulary ?? catalogVocabulary(t.id))?.objects ?? []).includes(item),
          ),
        ).map((t) => t.id),
      );
    if (verb === 'create') made.add(provider);
  });
  return [...new Set([...named, ...said, ...actedOn, ...answered, ...trigger.alternatives])].slice(0, 5);
}

/**
 * The org's connected capabilities nearest to a text no capability clearly does, best first: ranked by
 * the catalog's vocabulary with any verb, object or alias counting; none when nothing ranks (the
 * caller decides what to offer then, and recommends none of it). Pure.
 */
export function closestCapabilities(text: string, catalog: Catalog, limit = 4): string[] {
  const connected = new Set(catalog.connected);
  const usable = catalog.capabilities.filter((c) => connected.has(c.providerId));
  // what the text does, not where: a product it names ("in Workday") would keep only that product's items
  let words = text;
  for (const m of [...providersIn(text), ...unknownProductsIn(text)].sort((a, b) => b.index - a.index))
    words = `${words.slice(0, m.index)}${words.slice(m.index + m.name.length)}`;
  const hits = rankByVocabulary(words, usable, { connected, accept: (h) => h.verb || h.object || h.alias });
  return [...new Set(hits.map((h) => h.id))].slice(0, limit);
}
