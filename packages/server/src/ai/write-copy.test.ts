import { describe, expect, it } from 'vitest';
import type { PageSignals } from './ai-types.ts';
import { shorten, writeCopy } from './write-copy.ts';

function signals(over: Partial<PageSignals>): PageSignals {
  return {
    title: '',
    h1: null,
    metaDescription: null,
    ogTitle: null,
    ogDescription: null,
    ogSiteName: null,
    themeColor: null,
    text: '',
    wordCount: 0,
    counts: {
      forms: 0,
      passwordInputs: 0,
      inputs: 0,
      tables: 0,
      charts: 0,
      codeBlocks: 0,
      articles: 0,
      times: 0,
      prices: 0,
      headings: 0,
      images: 0,
      buttons: 0,
      navLinks: 0,
      asides: 0,
      products: 0,
    },
    colors: { buttons: [], links: [], headings: [], customProperties: [] },
    fonts: { heading: null, body: null },
    ...over,
  };
}

describe('writeCopy', () => {
  it('never uses the page title verbatim, even when the h1 repeats it', () => {
    const copy = writeCopy(signals({ title: 'Nightjar', h1: 'Nightjar' }), 'landing');
    expect(copy.headline).toBe('Meet Nightjar');
    const split = writeCopy(signals({ title: 'Pricing | Beacon', h1: 'Pricing | Beacon' }), 'pricing');
    expect(split.headline).toBe('Pricing');
  });

  it('keeps headlines within 60 and subtitles within 120 characters, cut at a boundary', () => {
    const long =
      'A very long description of a product that goes on and on about features, benefits, pricing and the team behind it. And more.';
    const copy = writeCopy(signals({ title: 'X', h1: long, metaDescription: long }), 'landing');
    expect(copy.headline?.length).toBeLessThanOrEqual(60);
    expect(copy.subtitle?.length).toBeLessThanOrEqual(120);
    // A prefix of the text that ends where a word ends, never mid-word.
    const headline = copy.headline ?? '';
    expect(long.startsWith(headline)).toBe(true);
    expect([' ', ',', '.']).toContain(long[headline.length]);
    expect(shorten('one two three four five six', 12)).toBe('one two');
  });

  it('badges only what the page says: a reading time, a discount, a trial', () => {
    expect(writeCopy(signals({ title: 't', text: 'posted · 6 min read' }), 'blog').badge).toBe('6 min read');
    expect(writeCopy(signals({ title: 't', text: 'today 20% off everything' }), 'e-commerce').badge).toBe(
      '20% off',
    );
    expect(writeCopy(signals({ title: 't', text: 'nothing special' }), 'portfolio').badge).toBeNull();
  });
});
