import type { ElementCandidate, PageLayout } from './element-candidate.ts';

/**
 * The usual vocabulary of page parts. Each concept lists words that mean it (matched after
 * stemming, in names, headings, identifiers and text), the roles and tags that are it, and a
 * structural test ("a sign-in form has a password field") for pages that name nothing.
 * A query word outside every concept is matched as itself.
 */
export interface ElementConcept {
  id: string;
  words: string[];
  roles?: string[];
  tags?: string[];
  /** Strength 0..1 with which the candidate's structure or place on the page is this concept. */
  structure?: (c: ElementCandidate, layout: PageLayout) => number;
}

const hasForm = (c: ElementCandidate) => c.tag === 'form' || c.contents.forms > 0;

export const ELEMENT_CONCEPTS: ElementConcept[] = [
  {
    id: 'hero',
    words: ['hero', 'banner', 'jumbotron', 'splash', 'masthead', 'intro', 'introduction', 'headline'],
    // A hero is the first large block: near the top, most of the width, sizeable.
    structure: (c, l) =>
      c.box.y < l.viewportHeight * 0.6 &&
      c.box.width >= l.viewportWidth * 0.6 &&
      c.box.height >= 200 &&
      c.box.height <= l.viewportHeight * 1.5 &&
      c.tag !== 'header' &&
      c.tag !== 'nav' &&
      c.role !== 'navigation'
        ? 0.75
        : 0,
  },
  {
    id: 'navigation',
    words: ['navigation', 'nav', 'navbar', 'menu', 'menubar', 'topbar', 'breadcrumb'],
    roles: ['navigation', 'menubar', 'menu'],
    tags: ['nav'],
  },
  {
    id: 'header',
    words: ['header', 'masthead', 'topbar'],
    roles: ['banner'],
    tags: ['header'],
  },
  {
    id: 'sidebar',
    words: ['sidebar', 'side', 'aside', 'drawer', 'sidenav', 'rail'],
    roles: ['complementary'],
    tags: ['aside'],
    // Tall and narrow against the left or right edge.
    structure: (c, l) => {
      const narrow = c.box.width <= l.viewportWidth * 0.35 && c.box.height >= c.box.width * 1.5;
      const atEdge = c.box.x <= 24 || c.box.x + c.box.width >= l.documentWidth - 24;
      return narrow && atEdge && c.box.height >= 300 ? 0.8 : 0;
    },
  },
  {
    id: 'pricing',
    words: [
      'pricing',
      'price',
      'prices',
      'plan',
      'plans',
      'tier',
      'tiers',
      'subscription',
      'cost',
      'billing',
    ],
    // Several prices with buttons: a price table; one price with a button: a single offer.
    structure: (c) => {
      const prices = c.text.match(/[$€£]\s?\d/g)?.length ?? 0;
      if (prices >= 2 && c.contents.buttons >= 2) return 0.5;
      return prices >= 1 && c.contents.buttons >= 1 ? 0.3 : 0;
    },
  },
  {
    id: 'testimonials',
    words: [
      'testimonial',
      'testimonials',
      'review',
      'reviews',
      'quote',
      'quotes',
      'customer',
      'customers',
      'endorsement',
    ],
    structure: (c) => (c.tag === 'blockquote' ? 0.5 : 0),
  },
  {
    id: 'features',
    words: ['feature', 'features', 'benefit', 'benefits', 'capability', 'capabilities'],
  },
  {
    id: 'faq',
    words: ['faq', 'faqs', 'question', 'questions', 'frequently', 'answers'],
    structure: (c) => (c.tag === 'details' || (c.text.match(/\?/g)?.length ?? 0) >= 3 ? 0.5 : 0),
  },
  {
    id: 'footer',
    words: ['footer', 'bottom', 'colophon'],
    roles: ['contentinfo'],
    tags: ['footer'],
  },
  {
    id: 'signup',
    words: ['signup', 'register', 'registration', 'join', 'create', 'account', 'onboarding', 'trial'],
    structure: (c) =>
      hasForm(c) && c.contents.passwords >= 1 && c.contents.inputs >= 3
        ? 0.7
        : hasForm(c) &&
            c.contents.emails >= 1 &&
            /sign ?up|register|create|trial|join|subscribe/i.test(c.text)
          ? 0.6
          : 0,
  },
  {
    id: 'signin',
    words: ['signin', 'login', 'logon', 'log', 'authentication', 'auth', 'credentials'],
    structure: (c) =>
      hasForm(c) && c.contents.passwords === 1 && c.contents.inputs <= 3 && /sign ?in|log ?in/i.test(c.text)
        ? 0.7
        : 0,
  },
  {
    id: 'contact',
    words: ['contact', 'touch', 'message', 'enquiry', 'inquiry', 'support'],
    structure: (c) =>
      hasForm(c) && c.contents.emails >= 1 && c.tag !== 'body' && /message|contact/i.test(c.text) ? 0.5 : 0,
  },
  {
    id: 'newsletter',
    words: ['newsletter', 'subscribe', 'mailing', 'updates'],
  },
  {
    id: 'form',
    words: ['form', 'fields', 'input', 'inputs'],
    roles: ['form'],
    tags: ['form'],
    structure: (c) => (c.contents.forms > 0 ? 0.75 : c.contents.inputs >= 2 ? 0.5 : 0),
  },
  {
    id: 'chart',
    words: [
      'chart',
      'charts',
      'graph',
      'graphs',
      'plot',
      'visualization',
      'visualisation',
      'diagram',
      'sparkline',
      'trend',
    ],
    tags: ['canvas'],
    structure: (c) => (c.tag === 'svg' ? 0.9 : c.contents.canvas > 0 || c.contents.svg > 0 ? 0.75 : 0),
  },
  {
    id: 'table',
    words: ['table', 'tables', 'grid', 'datagrid', 'spreadsheet', 'rows', 'list'],
    roles: ['table', 'grid', 'treegrid'],
    tags: ['table'],
    structure: (c) => (c.contents.tables > 0 ? 0.75 : 0),
  },
  {
    id: 'card',
    words: ['card', 'cards', 'tile', 'tiles', 'panel', 'widget', 'box'],
    structure: (c) => (c.surface ? 0.5 : 0),
  },
  {
    id: 'search',
    words: ['search', 'find', 'lookup', 'searchbar', 'searchbox'],
    roles: ['search', 'searchbox'],
    tags: ['search'],
    // A search field's own wrapper is the search; a larger block around it only holds one.
    structure: (c) =>
      c.contents.searches > 0 && c.contents.inputs <= 2
        ? c.contents.links + c.contents.headings + c.contents.buttons <= 1
          ? 0.8
          : 0.45
        : 0,
  },
  {
    id: 'image',
    words: ['image', 'picture', 'photo', 'illustration', 'screenshot', 'figure'],
    roles: ['img', 'figure'],
    tags: ['img', 'figure'],
    structure: (c) => (c.contents.images > 0 ? 0.5 : 0),
  },
  {
    id: 'gallery',
    words: ['gallery', 'carousel', 'slideshow', 'slider', 'thumbnails', 'photos', 'images', 'media'],
    structure: (c) => (c.contents.images >= 2 ? 0.6 : 0),
  },
  {
    id: 'recommendations',
    words: ['recommended', 'recommendations', 'related', 'similar', 'suggested', 'suggestions', 'also'],
  },
  {
    id: 'purchase',
    words: ['buy', 'purchase', 'cart', 'basket', 'checkout', 'bag'],
    structure: (c) =>
      c.contents.buttons >= 1 &&
      c.contents.buttons <= 4 &&
      /add to (cart|bag|basket)|buy now|checkout/i.test(c.text)
        ? 0.7
        : 0,
  },
  {
    id: 'code',
    words: ['code', 'snippet', 'example', 'sample'],
    tags: ['pre'],
    structure: (c) => (c.tag === 'pre' ? 0.9 : 0),
  },
  {
    id: 'article',
    words: ['article', 'post', 'story', 'blog', 'entry', 'content', 'body'],
    roles: ['article', 'main'],
    tags: ['article'],
  },
  {
    id: 'comments',
    words: ['comment', 'comments', 'discussion', 'replies', 'responses'],
  },
  {
    id: 'toc',
    words: ['toc', 'contents', 'outline', 'index'],
  },
  {
    id: 'stats',
    words: ['stats', 'statistics', 'metrics', 'kpi', 'kpis', 'numbers', 'figures', 'summary'],
  },
  {
    id: 'logos',
    words: ['logos', 'brands', 'clients', 'partners', 'companies', 'trusted'],
  },
  {
    id: 'author',
    words: ['author', 'byline', 'writer', 'bio'],
  },
  {
    id: 'buttons',
    words: ['button', 'buttons'],
    structure: (c) => (c.contents.buttons >= 2 && c.contents.inputs === 0 ? 0.5 : 0),
  },
  {
    id: 'cta',
    words: ['cta', 'action', 'call'],
  },
];

/**
 * Words that carry no meaning about which element ("the", "section"): dropped from the query.
 * A query made only of these matches nothing.
 */
export const FILLER_WORDS = new Set([
  'the',
  'a',
  'an',
  'of',
  'on',
  'in',
  'at',
  'to',
  'for',
  'with',
  'and',
  'or',
  'my',
  'our',
  'your',
  'this',
  'that',
  'page',
  'site',
  'website',
  'section',
  'sections',
  'area',
  'part',
  'block',
  'element',
  'component',
  'container',
  'module',
  'region',
  'thing',
  'bit',
  'one',
  'whole',
  'entire',
  'show',
  'me',
  'capture',
  'screenshot',
  'of',
  'just',
  'only',
  'please',
  'top',
  'main',
]);

/**
 * Phrases written as two words that mean one thing; joined before tokenising both the query and
 * the page's text ("sign up" and "signup" are the same word).
 */
export const JOINED_PHRASES: [RegExp, string][] = [
  [/\bsign[\s-]+up\b/g, 'signup'],
  [/\bsign[\s-]+in\b/g, 'signin'],
  [/\blog[\s-]+in\b/g, 'login'],
  [/\blog[\s-]+on\b/g, 'logon'],
  [/\be[\s-]+mail\b/g, 'email'],
  [/\bcall[\s-]+to[\s-]+action\b/g, 'cta'],
  [/\btable of contents\b/g, 'toc'],
  [/\bon[\s-]+this[\s-]+page\b/g, 'toc'],
  [/\bpric(e|es|ing)[\s-]+(table|grid|cards|boxes)\b/g, 'pricing'],
  [/\bsearch[\s-]+(bar|box|field|input)\b/g, 'search'],
  [/\bkey[\s-]+(metrics|figures|numbers|stats|indicators)\b/g, 'kpis'],
  [/\bq\s*&\s*a\b/g, 'faq'],
  [/\bget[\s-]+in[\s-]+touch\b/g, 'contact'],
  [/\bnav[\s-]+bar\b/g, 'navbar'],
  [/\bside[\s-]+bar\b/g, 'sidebar'],
  [/\bdata[\s-]+table\b/g, 'datagrid'],
];
