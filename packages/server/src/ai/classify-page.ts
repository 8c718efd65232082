import type { PageSignals, PageType, ScreenshotPalette, Tone } from './ai-types.ts';

/** How many of the words occur in the page's text. */
function mentions(text: string, words: string[]): number {
  return words.filter((w) => text.includes(w)).length;
}

/**
 * The page type from DOM signals: each type scores its tell-tale structure (a sign-in form's
 * password field, a dashboard's charts and tables, docs' code and sidebar, a shop's prices and
 * cart, a blog's article markup, a pricing page's plans, a portfolio's images); the landing page
 * is what remains. Returns the type and the signals that decided it.
 */
export function classifyPage(s: PageSignals): { type: PageType; reasons: string[] } {
  const c = s.counts;
  const t = s.text;
  const scores: Record<PageType, number> = {
    'app-sign-in':
      (c.passwordInputs > 0 ? 4 : 0) +
      (s.wordCount < 250 ? 1 : 0) +
      mentions(t, ['sign in', 'log in', 'login', 'forgot password', 'remember me']),
    dashboard:
      Math.min(c.charts, 3) +
      Math.min(c.tables, 2) +
      (c.asides > 0 ? 1 : 0) +
      mentions(t, ['dashboard', 'overview', 'analytics', 'revenue', 'active users', 'last 30 days']),
    docs:
      Math.min(c.codeBlocks, 4) +
      (c.asides > 0 ? 1 : 0) +
      mentions(t, ['documentation', 'docs', 'api reference', 'getting started', 'install', 'guide']),
    'e-commerce':
      Math.min(c.products, 3) +
      (c.prices >= 2 ? 1 : 0) +
      mentions(t, ['add to cart', 'add to bag', 'buy now', 'in stock', 'free shipping', 'checkout']) * 2,
    pricing:
      (c.prices >= 2 ? 2 : 0) +
      mentions(t, [
        'pricing',
        'per month',
        '/mo',
        'per year',
        'billed',
        'free plan',
        'enterprise',
        'choose a plan',
      ]),
    blog:
      Math.min(c.articles, 2) +
      Math.min(c.times, 2) +
      mentions(t, ['min read', 'posted', 'written by', 'comments', 'subscribe to', 'read more']),
    portfolio:
      (c.images >= 6 ? 2 : 0) +
      mentions(t, [
        'portfolio',
        'selected work',
        'my work',
        'case study',
        'projects',
        'designer',
        'photographer',
      ]),
    landing:
      2 +
      (c.buttons >= 2 ? 1 : 0) +
      mentions(t, ['get started', 'start free', 'sign up', 'try it', 'request a demo', 'features']),
  };
  // Structure beats vocabulary: a password field on a short page is a sign-in page, whatever it says.
  if (c.passwordInputs > 0 && s.wordCount < 250) scores['app-sign-in'] += 4;
  const ranked = (Object.entries(scores) as [PageType, number][]).sort((a, b) => b[1] - a[1]);
  const [type, score] = ranked[0] ?? ['landing', 0];
  return {
    type,
    reasons: [
      `page type ${type} (score ${score}; next ${ranked[1]?.[0]} ${ranked[1]?.[1]}) from forms ${c.forms}, password fields ${c.passwordInputs}, charts ${c.charts}, tables ${c.tables}, code blocks ${c.codeBlocks}, prices ${c.prices}, articles ${c.articles}, images ${c.images}`,
    ],
  };
}

/**
 * The tone from the screenshot's palette: dark when the mean luminance is low, colourful when
 * the mean chroma is high, minimal when the page is light and nearly grey with few colours,
 * light otherwise.
 */
export function toneOf(p: ScreenshotPalette): { tone: Tone; reason: string } {
  const facts = `luminance ${p.luminance.toFixed(2)}, chroma ${p.chroma.toFixed(3)}, ${p.colors.length} colours`;
  // Saturated hues (purple, red, blue) are dark by luminance alone; strong chroma reads as colour first.
  if (p.chroma >= 0.12) return { tone: 'colourful', reason: `tone colourful (${facts})` };
  if (p.luminance < 0.25) return { tone: 'dark', reason: `tone dark (${facts})` };
  if (p.chroma >= 0.07) return { tone: 'colourful', reason: `tone colourful (${facts})` };
  if (p.chroma < 0.02 && p.luminance > 0.6) return { tone: 'minimal', reason: `tone minimal (${facts})` };
  return { tone: 'light', reason: `tone light (${facts})` };
}

const AUDIENCES: Record<PageType, string> = {
  landing: 'prospective customers',
  dashboard: 'product users and teams',
  docs: 'developers',
  'e-commerce': 'shoppers',
  blog: 'readers',
  pricing: 'buyers comparing plans',
  portfolio: 'clients and recruiters',
  'app-sign-in': 'returning users',
};

export function audienceOf(type: PageType): string {
  return AUDIENCES[type];
}
