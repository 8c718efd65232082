import { stemmer } from 'stemmer';
import type { ElementCandidate, PageLayout } from './element-candidate.ts';
import {
  CHART_KINDS,
  COLLECTIVE_WORDS,
  COLOUR_WORDS,
  CONTAINER_NOUNS,
  ELEMENT_CONCEPTS,
  type ElementConcept,
  FILLER_WORDS,
  JOINED_PHRASES,
  OPTIONAL_WORDS,
  ORDINALS,
  POSITIONS,
  PRICE_ORDER,
  SECTION_WORDS,
  SET_NOUNS,
  SIZE_WORDS,
} from './element-vocabulary.ts';
import {
  findGroup,
  groupItems,
  type LikeMemo,
  placeFactor,
  readingOrder,
  siblingGroup,
} from './page-structure.ts';

/** One meaningful part of a description: a word, the stems that match it, and its concepts. */
export interface QueryTerm {
  word: string;
  /** The word's own stem (an exact hit) and its synonyms' stems (a slightly weaker hit). */
  stem: string;
  synonyms: Set<string>;
  concepts: ElementConcept[];
  /** The chart kind the word names ("pie", "bars"), when the description is about a chart. */
  chartKind?: string;
  /** A plural noun ("features", "plans"): it names a group of items more than one item. */
  plural: boolean;
  /** Dropped when nothing on the page says it ("the latest articles"). */
  optional?: boolean;
  /** Said after "with" / "containing": something inside the element ("the card with X"). */
  content?: boolean;
  /** A colour word ("the yellow card"): met by a block showing that colour. */
  colour?: string;
}

/** A description taken apart: its words, and the ordinal, place and context it gives. */
export interface ParsedQuery {
  terms: QueryTerm[];
  /** 1-based position among like items ("the second plan"); -1 is the last. */
  ordinal?: number;
  /** Where on the page ("the left menu", "at the top"). */
  positions: string[];
  /** Words of an enclosing part ("the links in the footer"): the element is inside it. */
  context: QueryTerm[];
  /** Cheapest or dearest of like items ("the cheapest plan"). */
  priceOrder?: 'min' | 'max';
  /** The description asks for a whole section ("the blog section"). */
  wantsSection: boolean;
  /** "The big chart", "the small cards": size decides between equally good matches. */
  size?: 'large' | 'small';
}

/**
 * The joined phrases as one pattern (one pass over a text instead of one per phrase: every
 * candidate's every field is tokenized), and each phrase anchored, to tell which one matched.
 */
const JOINED_ANY = new RegExp(JOINED_PHRASES.map(([p]) => `(?:${p.source})`).join('|'), 'g');
const JOINED_EACH = JOINED_PHRASES.map(([p, joined]): [RegExp, string] => [
  new RegExp(`^(?:${p.source})$`),
  joined,
]);
const joinPhrase = (match: string) => JOINED_EACH.find(([p]) => p.test(match))?.[1] ?? match;

/**
 * Lower-case, phrases joined, kebab/snake identifiers split into words, and camelCase ones too
 * (on the page's side: a description's "LinkedIn" is one word, not "linked in").
 */
export function tokenize(text: string, splitCamel = true): string[] {
  const s = (splitCamel ? text.replace(/([a-z])([A-Z])/g, '$1 $2') : text)
    .toLowerCase()
    .replace(/(\p{L})['’]s\b/gu, '$1')
    .replace(JOINED_ANY, joinPhrase);
  return s.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
}

const stemCache = new Map<string, string>();
function stem(word: string): string {
  let s = stemCache.get(word);
  if (s === undefined) {
    s = stemmer(word);
    if (stemCache.size < 50_000) stemCache.set(word, s);
  }
  return s;
}

const conceptStems = ELEMENT_CONCEPTS.map((concept) => ({
  concept,
  stems: new Set(concept.words.map(stem)),
}));
const CHART_NOUNS = new Set([
  'chart',
  'charts',
  'graph',
  'graphs',
  'plot',
  'plots',
  'diagram',
  'visualization',
]);
const CHART_ONLY_WORDS = new Set([
  'bars',
  'pie',
  'donut',
  'doughnut',
  'histogram',
  'sparkline',
  'sparklines',
]);
const CONTEXT_WORDS = new Set(['in', 'inside', 'within', 'under', 'from']);
const CONTENT_WORDS = new Set(['with', 'containing', 'holding', 'showing', 'has', 'having', 'featuring']);
const conceptWords = new Set(ELEMENT_CONCEPTS.flatMap((c) => c.words));

function termOf(word: string, chartQuery: boolean): QueryTerm {
  const s = stem(word);
  const concepts = conceptStems.filter((c) => c.stems.has(s));
  const synonyms = new Set<string>();
  for (const c of concepts) for (const other of c.stems) synonyms.add(other);
  synonyms.delete(s);
  const kind = CHART_KINDS.get(word);
  return {
    word,
    stem: s,
    synonyms,
    concepts: concepts.map((c) => c.concept),
    ...(kind && (chartQuery || word !== 'area') ? { chartKind: kind } : {}),
    // "The revenue bars" are the bars of one chart, not several things.
    plural:
      !(kind && chartQuery) &&
      ((s !== word && word.endsWith('s') && !word.endsWith('ss')) || COLLECTIVE_WORDS.has(word)),
  };
}

/** The description's meaningful words, each with its stem, synonyms and concepts. */
export function parseQuery(query: string): QueryTerm[] {
  return parseDescription(query).terms;
}

/**
 * Takes a description apart: filler dropped ("the", "section"), an ordinal ("second") and place
 * words ("left", "top") set aside, a trailing "in the footer" kept as the context the element
 * lies in, and each remaining word stemmed with its concept's synonyms.
 */
export function parseDescription(query: string): ParsedQuery {
  const words = tokenize(query, false);
  // A chart noun, or a word only charts are ("the revenue bars", "the pie").
  const chartQuery = words.some((w) => CHART_NOUNS.has(w) || CHART_ONLY_WORDS.has(w));
  let ordinal: number | undefined;
  const positions: string[] = [];
  let main = words;
  let contextWords: string[] = [];
  // "the links in the footer": the part after the last "in"/"inside"... names the container,
  // when the words before it name something of their own.
  for (let i = words.length - 2; i >= 1; i--) {
    const w = words[i] as string;
    if (!CONTEXT_WORDS.has(w)) continue;
    const after = words.slice(i + 1).filter((x) => !FILLER_WORDS.has(x) && !POSITIONS.has(x));
    const before = words.slice(0, i).filter((x) => !FILLER_WORDS.has(x) && !ORDINALS.has(x));
    if (after.length > 0 && before.length > 0) {
      main = words.slice(0, i);
      contextWords = after;
    }
    break;
  }
  const wantsSection = main.some((w) => SECTION_WORDS.has(w));
  let priceOrder: 'min' | 'max' | undefined;
  let size: 'large' | 'small' | undefined;
  const seen = new Set<string>();
  const terms: QueryTerm[] = [];
  const meaningful = main.filter((w) => !FILLER_WORDS.has(w));
  // "the card with progress bars": the words after "with" are something the element holds.
  const withAt = main.findIndex((w, i) => i > 0 && CONTENT_WORDS.has(w));
  for (const [i, word] of main.entries()) {
    if (CONTENT_WORDS.has(word)) continue;
    // "the list of posts" is the posts, as a set.
    if (SET_NOUNS.has(word) && main[i + 1] === 'of' && main.length > i + 2) continue;
    if (PRICE_ORDER.has(word) && priceOrder === undefined) {
      priceOrder = PRICE_ORDER.get(word);
      continue;
    }
    if (ORDINALS.has(word) && ordinal === undefined) {
      ordinal = ORDINALS.get(word);
      continue;
    }
    if (POSITIONS.has(word) && meaningful.some((w) => !POSITIONS.has(w) && !ORDINALS.has(w))) {
      positions.push(word);
      continue;
    }
    if (SIZE_WORDS.has(word) && size === undefined && meaningful.some((w) => !SIZE_WORDS.has(w))) {
      size = SIZE_WORDS.get(word);
      continue;
    }
    const chartKind = chartQuery && CHART_KINDS.has(word);
    // Filler is dropped, except a filler word that is all the description has ("the about
    // section") or a chart kind in a chart description ("the area chart").
    if (FILLER_WORDS.has(word) && !chartKind && !(meaningful.length === 0 && conceptWords.has(word)))
      continue;
    const term = termOf(word, chartQuery);
    if (seen.has(term.stem)) continue;
    seen.add(term.stem);
    if (OPTIONAL_WORDS.has(word)) term.optional = true;
    if (withAt > 0 && i > withAt) term.content = true;
    // A colour word, unless it names a theme ("the dark mode switch").
    if (COLOUR_WORDS.has(word) && !['mode', 'theme', 'themes'].includes(main[i + 1] ?? ''))
      term.colour = word;
    terms.push(term);
  }
  // A description that is only place words ("the top") keeps them as words.
  if (terms.length === 0 && positions.length > 0) {
    for (const p of positions.splice(0)) terms.push(termOf(p, chartQuery));
  }
  const context = contextWords.filter((w) => !FILLER_WORDS.has(w)).map((w) => termOf(w, chartQuery));
  return {
    terms,
    ...(ordinal !== undefined ? { ordinal } : {}),
    ...(priceOrder ? { priceOrder } : {}),
    positions,
    context,
    wantsSection,
    ...(size ? { size } : {}),
  };
}

/** Whether a colour ("r g b") is what a colour word names. */
export function colourFits(word: string, rgb: string): boolean {
  const want = COLOUR_WORDS.get(word);
  const parts = rgb.split(' ').map(Number);
  if (!want || parts.length !== 3 || parts.some((n) => !Number.isFinite(n))) return false;
  const [r, g, b] = parts.map((n) => n / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const light = (max + min) / 2;
  if (want.dark) return light < 0.25;
  if (want.light) return light > 0.9;
  const d = max - min;
  const sat = d === 0 ? 0 : d / (1 - Math.abs(2 * light - 1));
  if (sat < 0.25 || light < 0.15 || light > 0.9) return false;
  let hue = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  hue = (hue * 60 + 360) % 360;
  return (want.hues ?? []).some(([lo, hi]) => hue >= lo && hue <= hi);
}

/** How strongly each kind of evidence says "this element is what the word means". */
const FIELD_WEIGHTS = {
  name: 1,
  heading: 1,
  ident: 0.85,
  innerHeadings: 0.55,
  shortText: 0.45,
  longText: 0.2,
  innerIdent: 0.4,
};
/**
 * The class of one of several siblings with the same identifiers ("feature", "kpi") names the
 * kind of item, not the item: "features" means their container, "the Pro plan" an item by its own
 * heading.
 */
const REPEATED_IDENT = 0.55;
/** One word of a sentence-long heading ("Ship dashboards your customers read") names less. */
const SENTENCE_HEADING = 0.8;
/** A synonym's hit counts a little less than the word itself. */
const SYNONYM_FACTOR = 0.8;
/** A drawn title (bold text, no heading element) says a little less than a heading. */
const DRAWN_HEADING = 0.85;
/** Text longer than this is a container of many things: its words say little. */
const SHORT_TEXT = 400;
/** Evidence at or above this from the page's own words (not structure) "matches" a word. */
const WORD_MATCH = 0.4;

interface StemmedCandidate {
  name: Set<string>;
  heading: Set<string>;
  ident: Set<string>;
  innerHeadings: Set<string>;
  text: Set<string>;
  innerIdent: Set<string>;
}

function stems(text: string, seen?: Map<string, Set<string>>): Set<string> {
  const known = seen?.get(text);
  if (known) return known;
  const found = new Set(tokenize(text).map(stem));
  // A camelCase word is also itself ("LinkedIn" on the page meets "linkedin" in a description).
  for (const w of text.match(/\p{L}*\p{Ll}\p{Lu}\p{L}*/gu) ?? []) found.add(stem(w.toLowerCase()));
  seen?.set(text, found);
  return found;
}

/**
 * The stems of a candidate's fields. `seen` shares them between candidates with the same text (a
 * page repeats its cards' classes and texts); the sets are only read.
 */
function stemmedFields(c: ElementCandidate, seen?: Map<string, Set<string>>): StemmedCandidate {
  return {
    name: stems(c.name, seen),
    heading: stems(c.heading, seen),
    ident: stems(c.ident, seen),
    innerHeadings: stems(c.innerHeadings, seen),
    text: stems(c.text, seen),
    innerIdent: stems(c.innerIdent, seen),
  };
}

/**
 * Stems the Porter stemmer leaves apart though one is the start of the other ("compar" and
 * "comparison"): a near hit, for stems of 5 letters or more.
 */
const PREFIX_FACTOR = 0.85;
function prefixHit(field: Set<string>, s: string): boolean {
  if (s.length < 5) return false;
  for (const f of field) {
    if (f.length < 5 || f === s) continue;
    if (f.length > s.length ? f.startsWith(s) : s.startsWith(f)) return true;
  }
  return false;
}

function hit(field: Set<string>, term: QueryTerm): number {
  if (field.has(term.stem)) return 1;
  if (prefixHit(field, term.stem)) return PREFIX_FACTOR;
  for (const s of term.synonyms) if (field.has(s)) return SYNONYM_FACTOR;
  return 0;
}

const noisyOr = (evidence: number[]) => {
  let miss = 1;
  for (const e of evidence) miss *= 1 - Math.min(1, Math.max(0, e));
  return 1 - miss;
};

/**
 * How well one query word describes one candidate: the evidence of its words (`words`, 0..1) and
 * of its structure and kind (`all`, 0..1, which includes the words). Independent pieces of
 * evidence add up as a noisy OR; none reaches 1 by itself except a name or a heading of its own.
 */
function termScore(
  term: QueryTerm,
  c: ElementCandidate,
  f: StemmedCandidate,
  layout: PageLayout,
  repeated: boolean,
): TermEvidence {
  const textWeight = c.textLength <= SHORT_TEXT ? FIELD_WEIGHTS.shortText : FIELD_WEIGHTS.longText;
  // A heading over almost nothing (a page title block) names the page, not the block.
  // (A small card showing a title and a figure is a whole thing, though.)
  const titleOnly =
    c.heading !== '' &&
    c.text.toLowerCase().includes(c.heading.toLowerCase().slice(0, 24)) &&
    !(c.surface && c.box.height < 250) &&
    c.textLength < c.heading.length * 2 + 120 &&
    c.contents.buttons + c.contents.inputs + c.contents.canvas + c.contents.svg + c.contents.tables === 0 &&
    c.contents.images === 0 &&
    c.contents.headings <= 1;
  // An image's alternative text says what it shows, and a field's or a button's label what it
  // does, not which part of the page they are ("the sidebar" is not the illustration whose alt
  // is "sidebar_illustration", "the employees table" not the field labelled "Search within table").
  const pictureName =
    (c.tag === 'img' || c.tag === 'svg' || c.tag === 'picture') &&
    !term.concepts.some((x) => x.id === 'image' || x.id === 'icons' || x.id === 'logos');
  const controlName =
    ['input', 'select', 'textarea', 'button'].includes(c.tag) &&
    !term.concepts.some((x) =>
      ['form', 'search', 'buttons', 'signin', 'signup', 'newsletter'].includes(x.id),
    );
  const words = [
    (pictureName || controlName ? 0.5 : FIELD_WEIGHTS.name) * hit(f.name, term),
    (titleOnly ? 0.6 : f.heading.size > 4 ? SENTENCE_HEADING : FIELD_WEIGHTS.heading) *
      (c.headingDrawn ? DRAWN_HEADING : 1) *
      hit(f.heading, term),
    (repeated ? REPEATED_IDENT : FIELD_WEIGHTS.ident) * hit(f.ident, term),
    FIELD_WEIGHTS.innerHeadings * hit(f.innerHeadings, term),
    textWeight * hit(f.text, term),
    FIELD_WEIGHTS.innerIdent * hit(f.innerIdent, term),
  ];
  const structure: number[] = [];
  if (term.colour && c.colour !== '' && colourFits(term.colour, c.colour)) structure.push(0.9);
  if (term.chartKind) {
    // What the chart draws decides between two charts; a chart of another kind is not it.
    if (c.charts.includes(term.chartKind)) structure.push(1);
  }
  for (const concept of term.concepts) {
    if (concept.tags?.includes(c.tag) || (c.role !== '' && concept.roles?.includes(c.role))) {
      structure.push(0.95);
    }
    if (concept.structure) structure.push(concept.structure(c, layout));
  }
  const w = noisyOr(words);
  return {
    words: w,
    all: noisyOr([w, ...structure]),
    own: Math.max(words[0] ?? 0, words[1] ?? 0),
    text: c.textLength <= SHORT_TEXT ? hit(f.text, term) : 0,
  };
}

export interface ScoredCandidate {
  candidate: ElementCandidate;
  score: number;
}

/** Whether a candidate is a whole component (titled, sectioning, a card), not a fragment of one. */
function isComponent(c: ElementCandidate): boolean {
  return (
    c.heading !== '' ||
    c.name !== '' ||
    ['section', 'article', 'aside', 'nav', 'header', 'footer', 'form', 'table', 'figure', 'canvas'].includes(
      c.tag,
    ) ||
    (c.role !== '' && !['list', 'img', 'button', 'link', 'listitem'].includes(c.role)) ||
    (c.surface && c.box.width >= 120 && c.box.height >= 60) ||
    c.contents.repeats >= 2
  );
}

const LANDMARK_TAGS = new Set(['section', 'header', 'footer', 'nav', 'main', 'aside', 'body']);
/** Evidence an element gets from the heading of the component it lies in ("the web security service"). */
const INHERITED = 0.5;
/** How much less a group of items counts per level between it and the container holding it. */
const GROUP_DEPTH_FACTOR = 0.9;

/**
 * One word's evidence for one candidate: its words' (`words`), with its structure and kind
 * (`all`), its own name or heading (`own`), and how far its short text says the word (`text`),
 * each 0..1.
 */
type TermEvidence = { words: number; all: number; own: number; text: number };

/**
 * Scores every candidate against the description and returns them best first. Per word, the best
 * evidence of the candidate itself (names and headings strongest, then identifiers, then text and
 * what it holds; synonyms weaker; the concept's roles, tags, structure; what its charts draw);
 * half of what the heading of a component around it says; for a plural word the evidence of the
 * group of like items it holds ("features" is the container of the feature items); for a word
 * after "with", the best evidence of anything inside it. A candidate scores 0.7 x the (weighted)
 * mean over the words + 0.3 x the best word. Then: words that match nothing anywhere on the page
 * lower every candidate (the description is of something else); place words and an "in the ..."
 * context weigh by where the candidate is; fragments count less than whole components; an ordinal
 * or a price superlative picks that item among the best candidate's like items.
 */
export function scoreCandidates(
  query: string,
  candidates: readonly ElementCandidate[],
  layout: PageLayout,
): ScoredCandidate[] {
  const parsed = parseDescription(query);
  if (parsed.terms.length === 0) return [];
  const pageArea = Math.max(1, layout.documentWidth * layout.documentHeight);
  // An identifier several elements of one tag share names a kind of item, not the item.
  const identCount = new Map<string, number>();
  const identKey = (c: ElementCandidate) => `${c.tag}\u0000${c.ident}`;
  for (const c of candidates)
    if (c.ident !== '') identCount.set(identKey(c), (identCount.get(identKey(c)) ?? 0) + 1);
  const byIndex = new Map(candidates.map((c) => [c.index, c]));
  const children = new Map<number, ElementCandidate[]>();
  for (const c of candidates) {
    const list = children.get(c.parent) ?? [];
    list.push(c);
    children.set(c.parent, list);
  }
  const seenTexts = new Map<string, Set<string>>();
  const fields = new Map(candidates.map((c) => [c.index, stemmedFields(c, seenTexts)]));
  const scoreTerms = (list: readonly QueryTerm[]) => {
    const matrix = new Map<number, TermEvidence[]>();
    for (const c of candidates) {
      const repeated = c.ident !== '' && (identCount.get(identKey(c)) ?? 0) >= 2;
      const f = fields.get(c.index) as StemmedCandidate;
      matrix.set(
        c.index,
        list.map((t) => termScore(t, c, f, layout, repeated)),
      );
    }
    return matrix;
  };
  let terms = parsed.terms;
  let matrix = scoreTerms(terms);
  const matchedAnywhere = (ti: number) => {
    for (const row of matrix.values()) if ((row[ti]?.words ?? 0) >= WORD_MATCH) return true;
    return false;
  };
  // Optional words the page never says are dropped.
  if (terms.some((t, ti) => t.optional && !matchedAnywhere(ti))) {
    const keep = terms.filter((t, ti) => !t.optional || matchedAnywhere(ti));
    if (keep.length === 0) return [];
    terms = keep;
    matrix = scoreTerms(terms);
  }

  // Words that match nothing on the page (by the page's own words: a name, a heading, an
  // identifier, a short text) are what the description is really about: when the words outside
  // the common vocabulary match nothing, the page does not have the thing.
  let specific = 0;
  let specificMatched = 0;
  terms.forEach((t, ti) => {
    if (t.concepts.length > 0 || t.chartKind || t.colour) return;
    specific++;
    if (matchedAnywhere(ti)) specificMatched++;
  });
  const pageFactor =
    specific === 0 ? 1 : specificMatched === 0 ? 0.5 : ((specificMatched + 1) / (specific + 1)) ** 0.5;

  // An item's evidence: its own, or that of the element filling it (a column and its card).
  const bestInside = (item: ElementCandidate, ti: number, depth = 0): number => {
    let best = matrix.get(item.index)?.[ti]?.all ?? 0;
    const kids = children.get(item.index) ?? [];
    const area = item.box.width * item.box.height;
    if (depth < 4) {
      for (const child of kids) {
        if (kids.length === 1 || child.box.width * child.box.height >= area * 0.6) {
          best = Math.max(best, bestInside(child, ti, depth + 1));
        }
      }
    }
    return best;
  };
  // A plural word ("features", "plans") is met best by the container of several like items it
  // describes: the items' own evidence, lifted to the container holding them.
  const likeMemo: LikeMemo = new Map();
  // Groups are found once per candidate (the same for every word).
  const groupsHeld = new Map<number, { items: ElementCandidate[]; depth: number }>();
  const heldBy = (c: ElementCandidate) => {
    let g = groupsHeld.get(c.index);
    if (!g) {
      g = groupItems(c, children, layout.documentWidth, likeMemo);
      groupsHeld.set(c.index, g);
    }
    return g;
  };
  const groupEvidence = (c: ElementCandidate, ti: number, wholeItems = false): number => {
    const { items, depth } = heldBy(c);
    if (items.length < 2) return 0;
    if (wholeItems && !items.every(isComponent)) return 0;
    const rep = items.map((item) => bestInside(item, ti));
    if (rep.filter((r) => r >= 0.45).length < 2) return 0;
    return (rep.reduce((a, b) => a + b, 0) / rep.length) * 0.95 * GROUP_DEPTH_FACTOR ** depth;
  };
  // Anything inside: "the card with progress bars".
  const anyInside = (c: ElementCandidate, ti: number, depth = 0): number => {
    let best = matrix.get(c.index)?.[ti]?.all ?? 0;
    if (depth < 12)
      for (const k of children.get(c.index) ?? []) best = Math.max(best, anyInside(k, ti, depth + 1));
    return best;
  };
  // What the heading of a titled component around it says, or the words of its near ancestors.
  const inherited = (c: ElementCandidate, ti: number): number => {
    let best = 0;
    let depth = 0;
    for (let p = byIndex.get(c.parent); p && depth < 10; p = byIndex.get(p.parent), depth++) {
      const e = matrix.get(p.index)?.[ti];
      if (p.heading !== '') best = Math.max(best, e?.own ?? 0);
      if (depth < 3) best = Math.max(best, (e?.words ?? 0) * 0.8);
    }
    return best * INHERITED;
  };

  let contextBox: ElementCandidate | undefined;
  if (parsed.context.length > 0) {
    const ctx = scoreTerms(parsed.context);
    let best = 0;
    for (const c of candidates) {
      const row = ctx.get(c.index) ?? [];
      const sc = row.reduce((a, b) => a + b.all, 0) / Math.max(1, row.length);
      if (sc > best + 1e-6) {
        best = sc;
        contextBox = c;
      }
    }
    if (best < 0.5) contextBox = undefined;
  }

  // A plural the page uses as a title ("Pending Requests") names that thing, not a group.
  const titledOnPage = (t: QueryTerm) =>
    candidates.some((c) => c.heading.toLowerCase().includes(t.word) || c.name.toLowerCase().includes(t.word));
  for (const t of terms) if (t.plural && !COLLECTIVE_WORDS.has(t.word) && titledOnPage(t)) t.plural = false;
  const counting = parsed.ordinal !== undefined || parsed.priceOrder !== undefined;
  const hasPlural = terms.some((t) => t.plural) && !counting;
  // The last word is the noun the description is about ("client logos", "KPI cards"): when it
  // is plural, every word is read over the group.
  const headPlural = !counting && terms.filter((t) => !t.content).at(-1)?.plural === true;
  const head = terms.filter((t) => !t.content).at(-1);
  const headSingular =
    head &&
    !head.plural &&
    !counting &&
    terms.length > 1 &&
    head.concepts.length > 0 &&
    !CONTAINER_NOUNS.has(head.word)
      ? terms.indexOf(head)
      : -1;
  // A card's header strip (its first child, across its top) is part of the card: what the strip
  // says (a class, a title, a brand) the card says too, and the strip alone is a fragment unless
  // the description asks for a header.
  const stripOf = new Map<number, ElementCandidate>();
  for (const c of candidates) {
    const first = children.get(c.index)?.[0];
    if (
      first &&
      c.surface &&
      (children.get(c.index)?.length ?? 0) >= 2 &&
      first.box.y - c.box.y <= 4 &&
      first.box.width >= c.box.width * 0.9 &&
      first.box.height <= c.box.height * 0.6
    )
      stripOf.set(c.index, first);
  }
  const strips = new Set([...stripOf.values()].map((x) => x.index));
  // A bar across the top of the page (a header, a banner) holding one small menu is the
  // navigation bar: it says what its menu says, and the menu alone is a piece of it.
  const menuOf = new Map<number, ElementCandidate>();
  for (const c of candidates) {
    if (!(c.tag === 'header' || c.role === 'banner') || c.box.y > 200 || c.box.height > 200) continue;
    const menus: ElementCandidate[] = [];
    const visit = (x: ElementCandidate, depth: number) => {
      for (const k of children.get(x.index) ?? []) {
        if (k.role === 'navigation') menus.push(k);
        else if (depth < 3) visit(k, depth + 1);
      }
    };
    visit(c, 0);
    const menu = menus[0];
    if (menus.length === 1 && menu && menu.box.width * menu.box.height < c.box.width * c.box.height * 0.6)
      menuOf.set(c.index, menu);
  }
  const menus = new Set([...menuOf.values()].map((x) => x.index));
  const navigationTerm = (t: QueryTerm) => t.concepts.some((x) => x.id === 'navigation');
  const asksForSmall = terms.some((t) =>
    t.concepts.some((x) => ['icons', 'buttons', 'logos', 'search', 'form', 'toggle'].includes(x.id)),
  );
  const asksForStrip = terms.some((t) => /^(header|heading|title|strip|top|headerbar)$/.test(t.word));
  const kinds = terms.filter((t) => t.chartKind).map((t) => t.chartKind as string);
  const scored: ScoredCandidate[] = [];
  for (const c of candidates) {
    const row = matrix.get(c.index) ?? [];
    // One of several like items (a card of a grid): a plural word names their group instead,
    // unless the item's own heading says that very word.
    const member =
      hasPlural &&
      !LANDMARK_TAGS.has(c.tag) &&
      siblingGroup(c, children, byIndex, layout.documentWidth, likeMemo).length >= 2;
    let sum = 0;
    let weights = 0;
    let best = 0;
    const strip = stripOf.get(c.index);
    const stripRow = strip ? matrix.get(strip.index) : undefined;
    const menu = menuOf.get(c.index);
    const menuRow = menu ? matrix.get(menu.index) : undefined;
    // Several of the description's words together in one short text ("visits" and "bounce rate"
    // in one summary row) say more than each alone.
    const together = row.filter((e) => e.text >= PREFIX_FACTOR).length;
    terms.forEach((term, ti) => {
      let t = Math.max(row[ti]?.all ?? 0, inherited(c, ti));
      if (stripRow) t = Math.max(t, (stripRow[ti]?.words ?? 0) * 0.9);
      if (menuRow && navigationTerm(term)) t = Math.max(t, menuRow[ti]?.all ?? 0);
      if (together >= 2 && (row[ti]?.text ?? 0) >= PREFIX_FACTOR)
        t = Math.max(t, Math.min(0.75, 0.45 + 0.15 * (together - 1)));
      if ((term.plural || headPlural) && !counting) {
        const own = c.heading.toLowerCase().includes(term.word) || c.name.toLowerCase().includes(term.word);
        t = Math.max(t * (member && !own && term.plural ? 0.75 : 1), groupEvidence(c, ti));
      }
      if (term.content) t = Math.max(t, anyInside(c, ti));
      // Words outside the common vocabulary (a name, a topic) tell elements apart best.
      const weight =
        (term.content ? 0.6 : 1) * (term.concepts.length === 0 && !term.chartKind && !term.colour ? 1.5 : 1);
      sum += t * weight;
      weights += weight;
      best = Math.max(best, t);
    });
    // Mostly the mean (every word should fit), partly the best word (a modifier the page does
    // not spell out, "newsletter signup", must not sink an otherwise clear match).
    let score = (0.7 * sum) / weights + 0.3 * best;
    // A chart of another kind than the one asked for is not it.
    if (kinds.length > 0 && c.charts.length > 0 && !kinds.some((k) => c.charts.includes(k))) score *= 0.6;
    const area = c.box.width * c.box.height;
    if (area > pageArea * 0.85 || c.tag === 'main' || c.tag === 'body') score *= 0.6;
    // A fragment counts less than a whole component, unless the words ask for that kind of
    // element ("the product photo" is an image).
    const askedKind = terms.some((t) =>
      t.concepts.some((x) => x.tags?.includes(c.tag) || (c.role !== '' && x.roles?.includes(c.role))),
    );
    if (
      (!isComponent(c) && !askedKind) ||
      (strips.has(c.index) && !asksForStrip) ||
      (menus.has(c.index) && terms.some(navigationTerm))
    )
      score *= 0.85;
    // An icon-sized element (a glyph, a badge) is rarely what is meant unless asked for.
    if (c.box.width * c.box.height < 2500 && !askedKind && !asksForSmall) score *= 0.8;
    if (headPlural && member) score *= 0.85;
    // A singular noun ("the quote", "the plan") asks for one item, not the block holding several.
    if (headSingular >= 0 && groupEvidence(c, headSingular, true) >= 0.5) score *= 0.85;
    if (parsed.wantsSection && !LANDMARK_TAGS.has(c.tag) && c.box.width < layout.documentWidth * 0.85)
      score *= 0.9;
    for (const p of parsed.positions) score *= placeFactor(p, c, layout);
    if (contextBox) score *= inside(c, contextBox, byIndex) ? 1 : 0.7;
    score *= pageFactor;
    if (score > 0) scored.push({ candidate: c, score });
  }
  // Equal evidence: the element that owns a heading (a real one before a drawn title), then the
  // smaller (tighter) one; "the big ..." takes the larger one.
  const owns = (c: ElementCandidate) => (c.heading === '' ? 0 : c.headingDrawn ? 1 : 2);
  const areaOf = (c: ElementCandidate) => c.box.width * c.box.height;
  scored.sort((a, b) => {
    if (Math.abs(b.score - a.score) > 1e-6) return b.score - a.score;
    if (parsed.size === 'large') return areaOf(b.candidate) - areaOf(a.candidate);
    const ownA = owns(a.candidate);
    const ownB = owns(b.candidate);
    if (ownA !== ownB) return ownB - ownA;
    return areaOf(a.candidate) - areaOf(b.candidate);
  });
  if (counting) return pickItem(scored, parsed, children, byIndex, layout.documentWidth, likeMemo);
  return scored;
}

function inside(c: ElementCandidate, container: ElementCandidate, byIndex: Map<number, ElementCandidate>) {
  if (c.index === container.index) return false;
  for (let p = byIndex.get(c.parent); p; p = byIndex.get(p.parent))
    if (p.index === container.index) return true;
  return false;
}

/** The first amount of money in a candidate's text, or null. */
function priceOf(c: ElementCandidate): number | null {
  const m = /[$€£¥]\s?(\d[\d,]*(?:\.\d+)?)/.exec(c.text);
  return m?.[1] ? Number(m[1].replace(/,/g, '')) : null;
}

/**
 * "The second plan", "the cheapest plan": among the best candidates, the first that is one of a
 * group of like items (or holds one) with enough items; that item (in reading order, or by its
 * price) takes the lead with the score of the candidate that found it.
 */
function pickItem(
  scored: ScoredCandidate[],
  parsed: ParsedQuery,
  children: Map<number, ElementCandidate[]>,
  byIndex: Map<number, ElementCandidate>,
  pageWidth: number,
  likeMemo: LikeMemo,
): ScoredCandidate[] {
  const top = scored[0];
  if (!top) return scored;
  const ordinal = parsed.ordinal ?? 1;
  const scoreOf = new Map(scored.map((x) => [x.candidate.index, x.score]));
  // The group counted in is the one whose items best fit the words (the cards of "the second
  // card", not the author lines inside them): of the groups the best candidates belong to or
  // hold, the one with the highest mean score of its items, whole components first.
  const options: { s: ScoredCandidate; group: ElementCandidate[]; fit: number }[] = [];
  for (const s of scored.slice(0, 8)) {
    if (s.score < top.score * 0.75) break;
    const group = findGroup(s.candidate, children, byIndex, pageWidth, likeMemo);
    if (group.length < 2 || group.length < ordinal) continue;
    // An item's score: its own, or that of what fills it (a grid column and its card).
    const itemScore = (g: ElementCandidate) => {
      let best = scoreOf.get(g.index) ?? 0;
      for (let x = children.get(g.index); x?.length === 1 && x[0]; x = children.get(x[0].index))
        best = Math.max(best, scoreOf.get(x[0].index) ?? 0);
      return best;
    };
    const mean = group.reduce((sum, g) => sum + itemScore(g), 0) / group.length;
    const whole = group.every(isComponent);
    options.push({ s, group, fit: mean * (whole ? 1 : 0.9) });
  }
  options.sort((a, b) => b.fit - a.fit);
  for (const { s, group } of options) {
    let item: ElementCandidate | undefined;
    if (parsed.priceOrder) {
      const priced = group.map((g) => ({ g, p: priceOf(g) })).filter((x) => x.p !== null);
      if (priced.length < 2) continue;
      priced.sort((a, b) => ((a.p as number) - (b.p as number)) * (parsed.priceOrder === 'min' ? 1 : -1));
      item = priced[0]?.g;
    } else {
      const ordered = readingOrder(group);
      item = ordinal === -1 ? ordered[ordered.length - 1] : ordered[ordinal - 1];
    }
    if (!item) continue;
    const chosen = item;
    const rest = scored.filter((x) => x.candidate.index !== chosen.index);
    return [{ candidate: chosen, score: s.score }, ...rest];
  }
  return scored;
}

/** A one-line description of a candidate: for an AI pick, for a 422's best candidates, for logs. */
export function summarise(c: ElementCandidate): string {
  const parts = [c.tag + (c.role && c.role !== c.tag ? `[${c.role}]` : '')];
  if (c.ident) parts.push(`(${c.ident.slice(0, 60)})`);
  if (c.name) parts.push(`named "${c.name.slice(0, 60)}"`);
  if (c.heading) parts.push(`heading "${c.heading.slice(0, 60)}"`);
  const has = Object.entries(c.contents)
    .filter(([k, v]) => v > 0 && ['canvas', 'svg', 'tables', 'forms', 'inputs', 'passwords'].includes(k))
    .map(([k, v]) => `${v} ${k}`);
  if (has.length > 0) parts.push(`contains ${has.join(', ')}`);
  if (c.charts.length > 0) parts.push(`charts: ${c.charts.join('/')}`);
  parts.push(`${Math.round(c.box.width)}x${Math.round(c.box.height)} at y=${Math.round(c.box.y)}`);
  if (c.text) parts.push(`text "${c.text.slice(0, 80)}"`);
  return parts.join(' ');
}
