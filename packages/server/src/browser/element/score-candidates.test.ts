import { describe, expect, it } from 'vitest';
import type { CandidateContents, ElementCandidate, PageLayout } from './element-candidate.ts';
import { colourFits, parseDescription, parseQuery, scoreCandidates, tokenize } from './score-candidates.ts';

const LAYOUT: PageLayout = {
  viewportWidth: 1280,
  viewportHeight: 800,
  documentWidth: 1280,
  documentHeight: 3000,
};
const NONE: CandidateContents = {
  canvas: 0,
  svg: 0,
  tables: 0,
  forms: 0,
  inputs: 0,
  passwords: 0,
  emails: 0,
  searches: 0,
  buttons: 0,
  images: 0,
  links: 0,
  headings: 0,
  listItems: 0,
  prices: 0,
  repeats: 0,
};

let next = 0;
function candidate(
  fields: Partial<Omit<ElementCandidate, 'contents'>> & { contents?: Partial<CandidateContents> },
): ElementCandidate {
  const text = fields.text ?? '';
  return {
    index: next++,
    tag: 'div',
    role: '',
    name: '',
    heading: '',
    headingDrawn: false,
    innerHeadings: '',
    ident: '',
    innerIdent: '',
    charts: [],
    textLength: text.length,
    parent: -1,
    surface: false,
    colour: '',
    box: { x: 0, y: 1000, width: 1000, height: 400 },
    ...fields,
    text,
    contents: { ...NONE, ...fields.contents },
  };
}

describe('tokenize and parseQuery', () => {
  it('joins two-word phrases, splits identifiers, drops filler words', () => {
    expect(tokenize('Sign up form')).toEqual(['signup', 'form']);
    expect(tokenize('pricingTable hero-banner log_in')).toEqual(['pricing', 'hero', 'banner', 'log', 'in']);
    expect(parseQuery('the hero section').map((t) => t.word)).toEqual(['hero']);
    expect(parseQuery('the pricing table').map((t) => t.word)).toEqual(['pricing']);
    expect(parseQuery('the spaceship').map((t) => t.word)).toEqual(['spaceship']);
    expect(parseQuery('the section')).toEqual([]);
  });

  it('gives a word its concept synonyms, stemmed', () => {
    const [plans] = parseQuery('plans');
    expect(plans?.concepts.map((c) => c.id)).toContain('pricing');
    expect(plans?.synonyms.has('price')).toBe(true);
  });
});

describe('scoreCandidates', () => {
  it('prefers a heading of its own over words deep in the text, and synonyms count', () => {
    const plans = candidate({
      heading: 'Plans',
      ident: 'tiers',
      text: 'Starter $0 Pro $49',
      contents: { buttons: 3 },
    });
    const blog = candidate({ heading: 'Our blog', text: `${'Lorem ipsum '.repeat(50)} pricing` });
    const [best] = scoreCandidates('pricing', [blog, plans], LAYOUT);
    expect(best?.candidate).toBe(plans);
  });

  it('knows charts, tables and forms by their structure when nothing names them', () => {
    const chart = candidate({ contents: { canvas: 1 }, surface: true });
    const table = candidate({ tag: 'table', role: 'table' });
    const form = candidate({
      tag: 'form',
      role: 'form',
      text: 'Email Password Sign in',
      contents: { inputs: 2, passwords: 1 },
    });
    const all = [chart, table, form];
    expect(scoreCandidates('the graph', all, LAYOUT)[0]?.candidate).toBe(chart);
    expect(scoreCandidates('data table', all, LAYOUT)[0]?.candidate).toBe(table);
    expect(scoreCandidates('login form', all, LAYOUT)[0]?.candidate).toBe(form);
  });

  it('has layout sense: a hero is the first large block, a sidebar tall and narrow at an edge', () => {
    const hero = candidate({ box: { x: 0, y: 64, width: 1280, height: 520 } });
    const later = candidate({ box: { x: 0, y: 1800, width: 1280, height: 520 } });
    const side = candidate({ box: { x: 0, y: 0, width: 240, height: 1400 } });
    expect(scoreCandidates('hero', [later, hero, side], LAYOUT)[0]?.candidate).toBe(hero);
    expect(scoreCandidates('sidebar', [later, hero, side], LAYOUT)[0]?.candidate).toBe(side);
  });

  it('scores nothing for words the page does not have, and weighs repeated items below their container', () => {
    const features = candidate({ ident: 'features', innerHeadings: 'Fast | Private' });
    const items = [0, 1, 2].map(() => candidate({ ident: 'feature', parent: features.index }));
    expect(scoreCandidates('the spaceship', [features, ...items], LAYOUT)).toEqual([]);
    expect(scoreCandidates('features', [features, ...items], LAYOUT)[0]?.candidate).toBe(features);
  });
});

describe('issue 33, second stop: colours, sizes, brands, strips, breadcrumbs', () => {
  it('reads colour words against a block colour, size words apart, and a brand as one word', () => {
    expect(colourFits('yellow', '246 194 62')).toBe(true);
    expect(colourFits('yellow', '78 115 223')).toBe(false);
    expect(colourFits('blue', '78 115 223')).toBe(true);
    expect(colourFits('dark', '47 53 58')).toBe(true);
    expect(colourFits('green', '255 255 255')).toBe(false);
    const big = parseDescription('the big line graph');
    expect(big.size).toBe('large');
    expect(big.terms.map((t) => t.word)).toEqual(['line', 'graph']);
    expect(parseDescription('the dark mode switch').terms.find((t) => t.word === 'dark')?.colour).toBe(
      undefined,
    );
    expect(parseQuery('the LinkedIn card').map((t) => t.word)).toEqual(['linkedin', 'card']);
    // "The revenue bars" are one chart's bars, not several things.
    expect(parseQuery('the revenue bars').find((t) => t.word === 'bars')?.plural).toBe(false);
  });

  it('finds the block of a colour, and a card by what its header strip says', () => {
    const blue = candidate({
      surface: true,
      colour: '78 115 223',
      box: { x: 0, y: 100, width: 260, height: 160 },
    });
    const yellow = candidate({
      surface: true,
      colour: '246 194 62',
      box: { x: 300, y: 100, width: 260, height: 160 },
    });
    expect(scoreCandidates('the yellow card', [blue, yellow], LAYOUT)[0]?.candidate).toBe(yellow);
    const card = candidate({
      surface: true,
      ident: 'brand-card',
      box: { x: 0, y: 800, width: 266, height: 183 },
    });
    const strip = candidate({
      ident: 'brand-card-header bg-twitter',
      surface: true,
      parent: card.index,
      box: { x: 1, y: 801, width: 264, height: 96 },
    });
    const body = candidate({
      ident: 'brand-card-body',
      text: '973k followers',
      parent: card.index,
      box: { x: 1, y: 897, width: 264, height: 85 },
    });
    expect(scoreCandidates('the twitter followers box', [card, strip, body], LAYOUT)[0]?.candidate).toBe(
      card,
    );
  });

  it('keeps breadcrumbs apart from other navigation', () => {
    const sidebar = candidate({
      tag: 'nav',
      role: 'navigation',
      text: 'Dashboard Breadcrumb Cards Carousel Forms',
      contents: { links: 5 },
      box: { x: 0, y: 60, width: 200, height: 1200 },
    });
    const crumbs = candidate({
      tag: 'ol',
      role: 'list',
      ident: 'breadcrumb',
      text: 'Home Admin Dashboard',
      contents: { links: 2 },
      box: { x: 250, y: 60, width: 1000, height: 46 },
    });
    expect(scoreCandidates('the breadcrumbs', [sidebar, crumbs], LAYOUT)[0]?.candidate).toBe(crumbs);
  });
});
