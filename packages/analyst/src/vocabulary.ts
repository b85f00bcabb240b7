import {
  type CatalogCapability,
  type CatalogTrigger,
  capabilityVocabulary,
  triggerVocabulary,
  type Vocabulary,
} from '@hireloop/schemas';
import nlp from 'compromise';
import { LRUCache } from 'lru-cache';
import MiniSearch, { type SearchOptions } from 'minisearch';
import { lemmas, providersIn, tokenize } from './text';

// Clauses → catalog items through the catalog's own vocabulary (schemas/src/vocabulary.ts): a BM25
// index (minisearch: fuzzy and prefix terms, so "calender" and "reserv" still land) ranks the items,
// and a verb–object reading of the clause (compromise) decides whether the best one is meant.

/** Where the matcher reads an item's vocabulary: the catalog's table by default. */
export type VocabularyOf = (id: string) => Vocabulary | undefined;
export const catalogVocabulary: VocabularyOf = (id) => capabilityVocabulary[id] ?? triggerVocabulary[id];

const STOP = new Set([
  'a',
  'an',
  'the',
  'to',
  'in',
  'on',
  'of',
  'for',
  'with',
  'by',
  'at',
  'from',
  'into',
  'and',
  'or',
  'it',
  'them',
  'they',
  'their',
  'this',
  'that',
  'these',
  'those',
  'is',
  'are',
  'be',
  'as',
  'up',
  'out',
  'our',
  'my',
  'your',
  'his',
  'her',
  'its',
  'each',
  'every',
  'all',
  'so',
  'who',
  'what',
  'which',
  'when',
  'about',
  'then',
  'also',
  'someone',
  'people',
  'us',
  'we',
  'you',
  'i',
  'me',
]);

const words = (text: string): string[] =>
  tokenize(text.replace(/\bon[ -]call\b/gi, 'on-call'))
    .map((t) => t.lower.replace(/^#/, ''))
    .filter((w) => w.length > 1 && !STOP.has(w));

/**
 * A clause's word in the vocabulary's base form when the vocabulary knows one of its forms
 * ("bookings" → "booking", "asked" → "ask"), else the word as written.
 */
const baseForm = (word: string, known: ReadonlySet<string>): string =>
  lemmas(word).find((f) => known.has(f)) ?? word.toLowerCase();

/** A "#channel" is a channel; the rest in base form. */
const termsOf = (text: string, known: ReadonlySet<string>): string[] => [
  ...words(text).map((w) => baseForm(w, known)),
  ...(/(^|\s)#[\w-]+/.test(text) ? ['channel'] : []),
];

/** A vocabulary read off an item's name and description, for items the catalog gives none. */
export function derivedVocabulary(item: { name: string; description: string }): Vocabulary {
  const [verb = '', ...rest] = item.name.split('_');
  return { verbs: [verb], objects: rest.length ? [rest.join(' '), ...rest] : [], aliases: [item.description.slice(0, 80)] };
}

type Doc = { id: string; verbs: string; objects: string; aliases: string; provider: string };
type Index = {
  search: MiniSearch<Doc>;
  vocab: Map<string, Vocabulary>;
  /** items the catalog gives no vocabulary: read off their name and description */
  derived: Set<string>;
  known: Set<string>;
  verbs: Set<string>;
};
type Item = CatalogCapability | CatalogTrigger;

/**
 * Indexes held per lookup, the least recently used leaving first. A list of items is known by its ids
 * and its index found again only for the very same items (the same objects, in order): a list filtered
 * afresh from the same catalog on every call (the connected capabilities, the triggers but the schedule)
 * reuses the index built for it instead of building it again (~10 ms of one turn of the event loop for
 * 40-odd capabilities), and a catalog whose items changed gets a new one.
 */
const indexes = new WeakMap<VocabularyOf, LRUCache<string, { items: readonly Item[]; index: Index }>>();
export const INDEXES_KEPT = 32;

function indexOf(items: readonly Item[], vocabularyOf: VocabularyOf): Index {
  let held = indexes.get(vocabularyOf);
  if (!held) {
    held = new LRUCache({ max: INDEXES_KEPT });
    indexes.set(vocabularyOf, held);
  }
  const key = items.map((item) => item.id).join('\n');
  const entry = held.get(key);
  if (entry?.items.length === items.length && entry.items.every((item, i) => item === items[i])) return entry.index;
  const index = buildIndex(items, vocabularyOf);
  held.set(key, { items, index });
  return index;
}

function buildIndex(items: readonly Item[], vocabularyOf: VocabularyOf): Index {
  const search = new MiniSearch<Doc>({
    fields: ['verbs', 'objects', 'aliases', 'provider'],
    storeFields: ['id'],
    tokenize: (text) => text.split(/[\s,/]+/),
    processTerm: (t) => (t.length < 2 || STOP.has(t.toLowerCase()) ? null : t.toLowerCase()),
  });
  const vocab = new Map<string, Vocabulary>();
  const known = new Set<string>();
  const verbs = new Set<string>();
  const derived = new Set<string>();
  for (const item of items) {
    // the vocabulary the catalog serves with the entry, else the lookup's (a catalog from an older hub)
    const given = item.vocabulary ?? vocabularyOf(item.id);
    if (!given) derived.add(item.id);
    const v = given ?? derivedVocabulary(item);
    vocab.set(item.id, v);
    for (const w of v.verbs) verbs.add(w.split(' ')[0] ?? w);
    for (const w of [...v.verbs, ...v.objects, ...v.aliases].flatMap(words)) known.add(w);
    search.add({
      id: item.id,
      verbs: v.verbs.join(' '),
      objects: v.objects.join(' '),
      aliases: v.aliases.join(' '),
      provider: item.providerId.replace(/-/g, ' '),
    });
  }
  return { search, vocab, derived, known, verbs };
}

export type VerbObject = {
  /** the clause's main verb in its base form, with a particle when it has one ("look up") */
  verb: string | null;
  /** nouns of what the verb acts on and where, in their base form */
  objects: string[];
};

const PARTICLE = /^(up|out|off|back|on|in|through|over|together)$/;

/**
 * The verb and the nouns of a clause (compromise's parse). The caller's verb wins, then a first word
 * that is a verb of the vocabulary ("answers …", which compromise may read as a noun), then compromise.
 */
export function verbObject(
  clause: string,
  knownVerb?: string | null,
  known: ReadonlySet<string> = new Set(),
  vocabularyVerbs: ReadonlySet<string> = new Set(),
): VerbObject {
  const doc = nlp(clause);
  const firstWord = tokenize(clause)[0]?.lower ?? '';
  let verb = knownVerb ?? lemmas(firstWord).find((f) => vocabularyVerbs.has(f)) ?? null;
  if (!verb) {
    const first = (
      doc.verbs().json() as Array<{ text: string; verb?: { infinitive?: string }; terms?: { tags: string[] }[] }>
    ).find(
      (v) => !(v.terms ?? []).every((t) => t.tags.includes('Copula') || t.tags.includes('Modal') || t.tags.includes('Auxiliary')),
    );
    verb = first?.verb?.infinitive?.toLowerCase() ?? null;
  }
  const words = tokenize(clause).map((t) => t.lower);
  const at = verb ? words.findIndex((w) => lemmas(w).includes(verb?.split(' ')[0] ?? '')) : -1;
  const next = at >= 0 ? words[at + 1] : undefined;
  if (verb && !verb.includes(' ') && next && PARTICLE.test(next)) verb = `${verb} ${next}`;
  const nouns = (doc.nouns().json() as Array<{ text: string; noun?: { root?: string } }>)
    .flatMap((n) => termsOf(n.noun?.root ?? n.text, known))
    .filter((w) => w !== verb?.split(' ')[0]);
  return { verb, objects: [...new Set(nouns)] };
}

export type VocabularyHit = {
  id: string;
  providerId: string;
  score: number;
  verb: boolean;
  object: boolean;
  alias: boolean;
  /** the item had no vocabulary: matched on its name and description */
  derived: boolean;
};

const verbHit = (v: Vocabulary, verb: string | null, lower: string): boolean => {
  if (!verb) return false;
  const head = verb.split(' ')[0] ?? '';
  return v.verbs.some((w) => (w.includes(' ') ? w === verb || lower.includes(w) : w === head));
};

const objectHit = (v: Vocabulary, clauseTerms: readonly string[], objectTerms: readonly string[]): boolean =>
  v.objects.some((o) => {
    const parts = words(o);
    return parts.length > 0 && parts.every((p) => clauseTerms.includes(p) || objectTerms.includes(p));
  });

/** An alias counts when its content words are (nearly) all in the clause and, when short, it says the clause's verb. */
const aliasHit = (v: Vocabulary, clauseTerms: readonly string[], verb: string | null, share = 1): boolean =>
  v.aliases.some((a) => {
    const parts = words(a);
    if (parts.length < 2) return false;
    if (parts.length < 3 && share === 1 && !(verb && parts.includes(verb.split(' ')[0] ?? ''))) return false;
    const found = parts.filter((p) => clauseTerms.includes(p)).length;
    return found === parts.length || (parts.length >= 4 && found >= parts.length - 1) || found >= share * parts.length;
  });

const SEARCH: SearchOptions = {
  boost: { aliases: 1.5, verbs: 1.2, objects: 1.5, provider: 2 },
  fuzzy: (term) => (term.length >= 6 ? 0.2 : false),
  prefix: (term) => term.length >= 5,
  combineWith: 'OR',
};

export type RankContext = {
  /** providers the org has connected: a tie goes to them */
  connected?: ReadonlySet<string>;
  /** the provider the workflow starts in: a tie goes to it */
  nearProvider?: string | null;
  /** the clause's verb when the caller has parsed it */
  verb?: string | null;
  /** which hits count; by default a verb with one of its objects, or an alias */
  accept?: (hit: { id: string; verb: boolean; object: boolean; alias: boolean }) => boolean;
};

/**
 * Ranks catalog items for one clause by their vocabulary. An item is a candidate only when the clause
 * says its verb and one of its objects, or one of its aliases; a product named in the clause keeps
 * only that product's items. Best first; empty when nothing is meant with confidence. Pure.
 */
export function rankByVocabulary(
  clause: string,
  items: readonly (CatalogCapability | CatalogTrigger)[],
  ctx: RankContext = {},
  vocabularyOf: VocabularyOf = catalogVocabulary,
): VocabularyHit[] {
  const { search, vocab, derived, known, verbs } = indexOf(items, vocabularyOf);
  const lower = clause.toLowerCase();
  const vo = verbObject(clause, ctx.verb, known, verbs);
  const clauseTerms = termsOf(clause, known);
  const named = providersIn(clause).filter((m) => !m.weak);
  const namedIds = new Set(named.map((m) => m.providerId));
  const query = [...new Set([...(vo.verb ? [vo.verb] : []), ...clauseTerms])].join(' ');
  if (!query) return [];
  const results = search.search(query, SEARCH);
  const byId = new Map(items.map((i) => [i.id, i]));
  const hits: VocabularyHit[] = [];
  for (const r of results) {
    const id = String(r.id);
    const item = byId.get(id);
    const v = vocab.get(id);
    if (!item || !v) continue;
    if (namedIds.size > 0 && !namedIds.has(item.providerId)) continue;
    const verb = verbHit(v, vo.verb, lower);
    const object = objectHit(v, clauseTerms, vo.objects);
    const isDerived = derived.has(id);
    // a derived alias is the item's description: half of its words and one of its objects will do
    const alias = aliasHit(v, clauseTerms, vo.verb) || (isDerived && object && aliasHit(v, clauseTerms, vo.verb, 0.5));
    const accepted = ctx.accept ? ctx.accept({ id, verb, object, alias }) : (verb && object) || alias;
    if (!accepted) continue;
    let score = r.score + (verb ? 2 : 0) + (object ? 2 : 0) + (alias ? 3 : 0);
    if (namedIds.has(item.providerId)) score += 3;
    if (ctx.nearProvider === item.providerId) score += 1;
    if (ctx.connected?.has(item.providerId)) score += 0.5;
    hits.push({ id, providerId: item.providerId, score: Math.round(score * 100) / 100, verb, object, alias, derived: isDerived });
  }
  return hits.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}
