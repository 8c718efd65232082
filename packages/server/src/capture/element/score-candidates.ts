import { stemmer } from 'stemmer';
import type { ElementCandidate, PageLayout } from './element-candidate.ts';
import { ELEMENT_CONCEPTS, type ElementConcept, FILLER_WORDS, JOINED_PHRASES } from './element-vocabulary.ts';

/** One meaningful part of a description: a word, the stems that match it, and its concepts. */
export interface QueryTerm {
  word: string;
  /** The word's own stem (an exact hit) and its synonyms' stems (a slightly weaker hit). */
  stem: string;
  synonyms: Set<string>;
  concepts: ElementConcept[];
}

/** Lower-case, phrases joined, camelCase and kebab/snake identifiers split into words. */
export function tokenize(text: string): string[] {
  let s = text.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  for (const [pattern, joined] of JOINED_PHRASES) s = s.replace(pattern, joined);
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

/** The description's meaningful words, each with its stem, synonyms and concepts. */
export function parseQuery(query: string): QueryTerm[] {
  const seen = new Set<string>();
  const terms: QueryTerm[] = [];
  for (const word of tokenize(query)) {
    if (FILLER_WORDS.has(word)) continue;
    const s = stem(word);
    if (seen.has(s)) continue;
    seen.add(s);
    const concepts = conceptStems.filter((c) => c.stems.has(s));
    const synonyms = new Set<string>();
    for (const c of concepts) for (const other of c.stems) synonyms.add(other);
    synonyms.delete(s);
    terms.push({ word, stem: s, synonyms, concepts: concepts.map((c) => c.concept) });
  }
  return terms;
}

/** How strongly each kind of evidence says "this element is what the word means". */
const FIELD_WEIGHTS = {
  name: 1,
  heading: 1,
  ident: 0.85,
  innerHeadings: 0.55,
  shortText: 0.45,
  longText: 0.2,
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
const SYNONYM_FACTOR = 0.9;
/** Text longer than this is a container of many things: its words say little. */
const SHORT_TEXT = 400;

interface StemmedCandidate {
  name: Set<string>;
  heading: Set<string>;
  ident: Set<string>;
  innerHeadings: Set<string>;
  text: Set<string>;
}

function stems(text: string): Set<string> {
  return new Set(tokenize(text).map(stem));
}

function stemmedFields(c: ElementCandidate): StemmedCandidate {
  return {
    name: stems(c.name),
    heading: stems(c.heading),
    ident: stems(c.ident),
    innerHeadings: stems(c.innerHeadings),
    text: stems(c.text),
  };
}

function hit(field: Set<string>, term: QueryTerm): number {
  if (field.has(term.stem)) return 1;
  for (const s of term.synonyms) if (field.has(s)) return SYNONYM_FACTOR;
  return 0;
}

/**
 * 0..1: how well one query word describes one candidate. Independent pieces of evidence add up
 * (a noisy OR: a "$" price grid whose class says "tiers" is more surely the plans than either
 * alone), none reaches 1 by itself except a name or a heading of its own.
 */
function termScore(
  term: QueryTerm,
  c: ElementCandidate,
  f: StemmedCandidate,
  layout: PageLayout,
  repeated: boolean,
): number {
  const textWeight = c.textLength <= SHORT_TEXT ? FIELD_WEIGHTS.shortText : FIELD_WEIGHTS.longText;
  // A heading over almost nothing (a page title block) names the page, not the block.
  const titleOnly =
    c.heading !== '' &&
    c.textLength < c.heading.length * 2 + 120 &&
    c.contents.buttons + c.contents.inputs + c.contents.canvas + c.contents.svg + c.contents.tables === 0 &&
    c.contents.headings <= 1;
  const evidence = [
    FIELD_WEIGHTS.name * hit(f.name, term),
    (titleOnly ? 0.6 : f.heading.size > 4 ? SENTENCE_HEADING : FIELD_WEIGHTS.heading) * hit(f.heading, term),
    (repeated ? REPEATED_IDENT : FIELD_WEIGHTS.ident) * hit(f.ident, term),
    FIELD_WEIGHTS.innerHeadings * hit(f.innerHeadings, term),
    textWeight * hit(f.text, term),
  ];
  for (const concept of term.concepts) {
    if (concept.tags?.includes(c.tag) || (c.role !== '' && concept.roles?.includes(c.role))) {
      evidence.push(0.95);
    }
    if (concept.structure) evidence.push(concept.structure(c, layout));
  }
  let miss = 1;
  for (const e of evidence) miss *= 1 - Math.min(1, e);
  return 1 - miss;
}

export interface ScoredCandidate {
  candidate: ElementCandidate;
  score: number;
}

/**
 * Scores every candidate against the description: the mean over the query's words of each word's
 * best evidence (names and headings strongest, then identifiers, then text; synonyms a little
 * weaker; the concept's roles, tags, structure and place on the page), then layout sense: the
 * whole page (or nearly) is rarely what a description means. Best first.
 */
export function scoreCandidates(
  query: string,
  candidates: readonly ElementCandidate[],
  layout: PageLayout,
): ScoredCandidate[] {
  const terms = parseQuery(query);
  if (terms.length === 0) return [];
  const pageArea = Math.max(1, layout.documentWidth * layout.documentHeight);
  const siblings = new Map<string, number>();
  const siblingKey = (c: ElementCandidate) => `${c.parent}\u0000${c.tag}\u0000${c.ident}`;
  for (const c of candidates) {
    if (c.ident !== '') siblings.set(siblingKey(c), (siblings.get(siblingKey(c)) ?? 0) + 1);
  }
  const scored: ScoredCandidate[] = [];
  for (const c of candidates) {
    const repeated = c.ident !== '' && (siblings.get(siblingKey(c)) ?? 0) >= 2;
    const fields = stemmedFields(c);
    let sum = 0;
    let best = 0;
    for (const term of terms) {
      const t = termScore(term, c, fields, layout, repeated);
      sum += t;
      best = Math.max(best, t);
    }
    // Mostly the mean (every word should fit), partly the best word (a modifier the page does
    // not spell out, "newsletter signup", must not sink an otherwise clear match).
    let score = (0.7 * sum) / terms.length + 0.3 * best;
    const area = c.box.width * c.box.height;
    if (area > pageArea * 0.6 || c.tag === 'main' || c.tag === 'body') score *= 0.6;
    if (score > 0) scored.push({ candidate: c, score });
  }
  // Equal evidence: the element that owns the heading, then the smaller (tighter) one.
  scored.sort((a, b) => {
    if (Math.abs(b.score - a.score) > 1e-6) return b.score - a.score;
    const ownA = a.candidate.heading !== '' ? 1 : 0;
    const ownB = b.candidate.heading !== '' ? 1 : 0;
    if (ownA !== ownB) return ownB - ownA;
    return a.candidate.box.width * a.candidate.box.height - b.candidate.box.width * b.candidate.box.height;
  });
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
  parts.push(`${Math.round(c.box.width)}x${Math.round(c.box.height)} at y=${Math.round(c.box.y)}`);
  if (c.text) parts.push(`text "${c.text.slice(0, 80)}"`);
  return parts.join(' ');
}
