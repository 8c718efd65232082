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
    words: [
      'hero',
      'banner',
      'jumbotron',
      'splash',
      'masthead',
      'intro',
      'introduction',
      'headline',
      'welcome',
    ],
    // A hero is the first large block: at the top (under a bar at most), most of the width, tall.
    structure: (c, l) =>
      c.box.y < l.viewportHeight * 0.3 &&
      c.box.width >= l.viewportWidth * 0.6 &&
      c.box.height >= 200 &&
      c.box.height <= l.viewportHeight * 1.5 &&
      c.tag !== 'nav' &&
      c.role !== 'navigation'
        ? 0.75
        : 0,
  },
  {
    // A band across the page (a callout, a quote or a call to action on its own background),
    // anywhere down the page: what "banner" means when it is not the hero.
    id: 'band',
    words: ['banner', 'band', 'callout', 'strip', 'stripe'],
    structure: (c, l) =>
      c.surface &&
      c.box.width >= l.viewportWidth * 0.9 &&
      c.box.height >= 80 &&
      c.box.height <= 600 &&
      c.tag !== 'nav' &&
      c.tag !== 'header' &&
      c.tag !== 'footer' &&
      c.role !== 'navigation'
        ? 0.6
        : 0,
  },
  {
    id: 'navigation',
    words: ['navigation', 'nav', 'navbar', 'menu', 'menubar', 'sidenav', 'links'],
    roles: ['navigation', 'menubar', 'menu'],
    tags: ['nav'],
    // Mostly links: a menu.
    structure: (c) =>
      c.contents.links >= 3 && c.textLength / c.contents.links < 30 && c.contents.inputs === 0 ? 0.5 : 0,
  },
  {
    // A kind of navigation, not every navigation: it is found by its own words (a class, a label).
    id: 'breadcrumb',
    words: ['breadcrumb', 'breadcrumbs', 'crumbs', 'trail'],
  },
  {
    id: 'topbar',
    words: ['topbar', 'toolbar', 'appbar', 'menubar', 'headerbar'],
    // A bar across the top: wide, short, at the very top of the page.
    structure: (c, l) =>
      c.box.y < 120 && c.box.width >= l.viewportWidth * 0.5 && c.box.height <= 160 && c.box.height >= 32
        ? 0.85
        : 0,
  },
  {
    id: 'header',
    words: ['header', 'masthead', 'headerbar'],
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
    // Several prices with buttons: a price table; one price with a period or a button: a plan.
    structure: (c) => {
      if (c.contents.prices >= 2 && c.contents.buttons + c.contents.links >= 2) return 0.6;
      if (c.contents.prices === 1 && /\/\s?(mo|month|yr|year|user|seat)|per (month|year|user)/i.test(c.text))
        return 0.6;
      return c.contents.prices === 1 && c.contents.buttons + c.contents.links >= 1 ? 0.45 : 0;
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
      'feedback',
      'saying',
      'testimony',
    ],
    // A quotation (a blockquote, a block that opens with a quotation mark, or a small block holding
    // a quoted sentence and who said it) is a testimonial.
    structure: (c) =>
      c.tag === 'blockquote'
        ? 0.5
        : /^["“”«„]/.test(c.text) && c.textLength < 600
          ? 0.5
          : c.textLength < 400 && /["“«„][^"“”«„]{15,}["”»]/.test(c.text)
            ? 0.45
            : 0,
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
    words: [
      'signup',
      'register',
      'registration',
      'join',
      'create',
      'account',
      'onboarding',
      'trial',
      'subscribe',
    ],
    structure: (c) =>
      hasForm(c) && c.contents.passwords >= 1 && c.contents.inputs >= 3
        ? 0.7
        : c.contents.emails >= 1 &&
            c.contents.inputs <= 4 &&
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
    // One email field and a button: a newsletter box.
    structure: (c) =>
      c.contents.emails >= 1 && c.contents.inputs <= 2 && c.contents.passwords === 0 ? 0.6 : 0,
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
    // The plot itself, or better the titled card around exactly one plot (the chart with its
    // title and legend); a block holding several plots is a dashboard, not a chart.
    structure: (c) => {
      if (c.tag === 'canvas' || c.tag === 'svg') return c.tag === 'svg' && c.charts.length === 0 ? 0.8 : 0.9;
      const plots = c.contents.canvas + c.contents.svg;
      if (plots === 1) return c.heading !== '' ? 0.95 : 0.8;
      return plots > 1 ? 0.5 : 0;
    },
  },
  {
    id: 'table',
    words: ['table', 'tables', 'datagrid', 'spreadsheet', 'rows', 'columns'],
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
    id: 'list',
    words: ['list', 'lists', 'listing', 'items', 'entries'],
    roles: ['list'],
    tags: ['ul', 'ol', 'dl'],
  },
  {
    id: 'team',
    words: ['team', 'members', 'member', 'staff', 'people', 'crew', 'employees', 'colleagues', 'founders'],
  },
  {
    id: 'gallery-work',
    words: ['portfolio', 'projects', 'work', 'works', 'showcase', 'samples', 'gallery', 'previews'],
    structure: (c) => (c.contents.images >= 3 ? 0.45 : 0),
  },
  {
    id: 'services',
    words: ['services', 'service', 'offer', 'offers', 'offering', 'offerings', 'solutions'],
  },
  {
    id: 'timeline',
    words: ['timeline', 'history', 'milestones', 'journey', 'chronology'],
    // A list of dated entries: several years in a list.
    structure: (c) =>
      c.contents.listItems >= 3 && (c.text.match(/\b(19|20)\d{2}\b/g)?.length ?? 0) >= 3 ? 0.6 : 0,
  },
  {
    id: 'experience',
    words: ['experience', 'jobs', 'job', 'employment', 'career', 'positions', 'work'],
  },
  {
    id: 'education',
    words: ['education', 'degree', 'degrees', 'university', 'school', 'studies', 'academic', 'college'],
  },
  {
    id: 'skills',
    words: ['skills', 'skill', 'tools', 'technologies', 'tech', 'stack', 'expertise'],
  },
  {
    id: 'interests',
    words: ['interests', 'hobbies', 'hobby', 'pastimes', 'passions'],
  },
  {
    id: 'awards',
    words: ['awards', 'award', 'certifications', 'certificates', 'honors', 'honours', 'achievements'],
  },
  {
    id: 'about',
    words: ['about', 'intro', 'bio', 'profile', 'biography', 'overview'],
  },
  {
    id: 'products',
    words: ['products', 'product', 'items', 'catalog', 'catalogue', 'merchandise', 'goods', 'shop', 'store'],
  },
  {
    id: 'colors',
    words: ['colors', 'colours', 'color', 'colour', 'palette', 'swatches'],
    // Colour swatches show their codes.
    structure: (c) => {
      const codes = c.text.match(/#[0-9a-f]{6}\b|#[0-9a-f]{3}\b|rgba?\(/gi)?.length ?? 0;
      return codes >= 2 ? 0.8 : codes === 1 && c.textLength < 60 ? 0.5 : 0;
    },
  },
  {
    id: 'map',
    words: ['map', 'location', 'directions', 'address'],
    tags: ['iframe'],
  },
  {
    id: 'progress',
    words: ['progress', 'progressbar', 'progressbars', 'completion'],
    roles: ['progressbar'],
  },
  {
    id: 'social',
    // The networks' names are not synonyms of one another ("the LinkedIn card" is not the
    // Twitter one): they are matched as themselves, and say "social" through the structure.
    words: ['social', 'socials'],
    // Links to social sites, or blocks branded as them (a "Facebook" card, a Twitter-blue tile).
    structure: (c) => {
      const brands =
        `${c.ident} ${c.innerIdent}`.match(
          /(twitter|facebook|linkedin|github|instagram|youtube|dribbble|mastodon|google-plus|pinterest)/gi,
        ) ?? [];
      if (brands.length === 0) return 0;
      return c.contents.links >= 2 ? 0.7 : new Set(brands.map((b) => b.toLowerCase())).size >= 2 ? 0.6 : 0.45;
    },
  },
  {
    id: 'grid',
    words: ['grid', 'layout', 'mosaic', 'collection'],
    structure: (c) => (c.contents.repeats >= 3 ? 0.7 : c.contents.repeats === 2 ? 0.4 : 0),
  },
  {
    id: 'icons',
    words: ['icon', 'icons', 'symbols', 'logos'],
    structure: (c) =>
      /(^|\s)(fa|fas|far|fab|bi|icon|icons|material-icons|glyphicon)(\s|$)|(^|\s|-)icons?(\s|-|$)/i.test(
        c.innerIdent,
      )
        ? 0.5
        : 0,
  },
  {
    id: 'search',
    words: ['search', 'find', 'lookup', 'searchbar', 'searchbox'],
    roles: ['search', 'searchbox'],
    tags: ['search'],
    // A search field's own wrapper is the search; a larger block around it only holds one. A lone
    // plain text field in the bar at the top of a page is its search box, by convention.
    structure: (c) =>
      c.contents.searches > 0 && c.contents.inputs <= 2
        ? c.contents.links + c.contents.headings + c.contents.buttons <= 1
          ? 0.8
          : 0.45
        : c.contents.inputs === 1 &&
            c.contents.passwords + c.contents.emails === 0 &&
            c.box.y < 120 &&
            c.box.height <= 80 &&
            c.contents.links + c.contents.headings + c.contents.buttons <= 1
          ? 0.55
          : 0,
  },
  {
    id: 'image',
    words: ['image', 'picture', 'photo', 'illustration', 'illustrations', 'screenshot', 'figure', 'mockup'],
    roles: ['img', 'figure'],
    tags: ['img', 'figure'],
    // A block around one picture is that picture (a figure); a block of several is a gallery.
    structure: (c) => (c.contents.images === 1 ? 0.5 : c.contents.images > 1 ? 0.25 : 0),
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
    words: ['buy', 'purchase', 'cart', 'basket', 'checkout', 'bag', 'order'],
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
    // A titled piece with a date: a post.
    structure: (c) =>
      c.heading !== '' &&
      !c.headingDrawn &&
      c.textLength <= 1200 &&
      /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2},? \d{4}\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2} (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{4}\b/i.test(
        c.text,
      )
        ? 0.5
        : 0,
  },
  {
    // A control that switches between two or three states or views (monthly / annual, light /
    // dark, a row of tabs): a short block of two to four buttons and little text.
    id: 'toggle',
    words: ['switch', 'toggle', 'switcher', 'tabs', 'segmented'],
    roles: ['switch', 'tablist'],
    structure: (c) =>
      c.contents.buttons >= 2 &&
      c.contents.buttons <= 4 &&
      c.contents.inputs === 0 &&
      c.box.height <= 60 &&
      c.textLength <= 40
        ? 0.6
        : 0,
  },
  {
    id: 'tasks',
    words: ['todo', 'todos', 'tasks', 'task', 'checklist', 'chores'],
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
    words: [
      'stats',
      'stat',
      'statistics',
      'metrics',
      'metric',
      'kpi',
      'kpis',
      'numbers',
      'figures',
      'summary',
      'counters',
    ],
    // A figure with its label: short text, a number, a title.
    structure: (c) => (c.heading !== '' && c.textLength <= 80 && /\d/.test(c.text) ? 0.5 : 0),
  },
  {
    id: 'logos',
    words: ['logos', 'logo', 'brands', 'clients', 'partners', 'companies', 'trusted', 'sponsors'],
  },
  {
    id: 'author',
    words: ['author', 'byline', 'writer', 'bio'],
  },
  {
    id: 'buttons',
    words: ['button', 'buttons'],
    tags: ['button'],
    roles: ['button'],
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
  // Nouns for "one of them", which say nothing of which ("the enterprise option").
  'option',
  'options',
  'choice',
  'variant',
  'of',
  'just',
  'only',
  'please',
  'main',
  'what',
  'which',
  'who',
  'they',
  'their',
  'them',
  'its',
  'is',
  'are',
  'has',
  'have',
  'all',
  'some',
  'about',
  'containing',
  'showing',
  'shows',
  'where',
  'big',
  'large',
  'small',
  'little',
  'tiny',
  'huge',
  'wide',
  'full',
  'row',
  'rows',
  'bit',
]);

/**
 * Words that narrow a description when the page says them ("the recent projects", "card two")
 * and are dropped when it does not ("the latest articles", "the three feature icons").
 */
export const OPTIONAL_WORDS = new Set([
  'latest',
  'recent',
  'newest',
  'new',
  'current',
  'featured',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'different',
  'various',
  'other',
  'details',
  'info',
  'information',
]);

/** Nouns for a set of things, singular in form: like a plural, they name a group ("the pricing"). */
export const COLLECTIVE_WORDS = new Set([
  'pricing',
  'gallery',
  'portfolio',
  'team',
  'staff',
  'faq',
  'grid',
  'catalog',
  'catalogue',
]);

/** Nouns for "a set of" ("the list of posts"): the description means the set of what follows. */
export const SET_NOUNS = new Set([
  'list',
  'grid',
  'set',
  'collection',
  'series',
  'group',
  'row',
  'bunch',
  'selection',
]);

/** Words that ask for a whole section of the page rather than a card in it. */
export const SECTION_WORDS = new Set(['section', 'sections', 'area', 'region', 'part', 'block']);

/** Superlatives of price: the plan to pick among plans ("the cheapest plan"). */
export const PRICE_ORDER = new Map<string, 'min' | 'max'>([
  ['cheapest', 'min'],
  ['cheaper', 'min'],
  ['lowest', 'min'],
  ['basic', 'min'],
  ['priciest', 'max'],
  ['expensive', 'max'],
  ['premium', 'max'],
  ['highest', 'max'],
]);

/** Ordinal words and the position they name (1-based; -1 is the last). */
export const ORDINALS = new Map<string, number>([
  ['first', 1],
  ['1st', 1],
  ['second', 2],
  ['2nd', 2],
  ['third', 3],
  ['3rd', 3],
  ['fourth', 4],
  ['4th', 4],
  ['fifth', 5],
  ['5th', 5],
  ['sixth', 6],
  ['6th', 6],
  ['seventh', 7],
  ['eighth', 8],
  ['ninth', 9],
  ['tenth', 10],
  ['last', -1],
  ['final', -1],
]);

/**
 * Words for an element's size among others like it ("the big chart", "the small cards"): they
 * decide between equally good matches.
 */
export const SIZE_WORDS = new Map<string, 'large' | 'small'>([
  ['big', 'large'],
  ['bigger', 'large'],
  ['biggest', 'large'],
  ['large', 'large'],
  ['larger', 'large'],
  ['largest', 'large'],
  ['huge', 'large'],
  ['main', 'large'],
  ['small', 'small'],
  ['smaller', 'small'],
  ['smallest', 'small'],
  ['little', 'small'],
  ['tiny', 'small'],
  ['mini', 'small'],
]);

/**
 * Nouns for a container of several things: the head noun of "the categories list" asks for the
 * whole list, not one item of it.
 */
export const CONTAINER_NOUNS = new Set([
  'list',
  'lists',
  'grid',
  'table',
  'row',
  'strip',
  'feed',
  'set',
  'group',
  'collection',
  'carousel',
  'slider',
  'gallery',
  'timeline',
  'menu',
  'navigation',
  'nav',
  'navbar',
  'sidebar',
  'toolbar',
  'topbar',
  'legend',
  'stack',
]);

/** Colour words and the colours they name, as hue ranges (degrees) or lightness. */
export const COLOUR_WORDS = new Map<string, { hues?: [number, number][]; dark?: boolean; light?: boolean }>([
  [
    'red',
    {
      hues: [
        [345, 360],
        [0, 12],
      ],
    },
  ],
  ['orange', { hues: [[12, 40]] }],
  ['yellow', { hues: [[40, 65]] }],
  ['amber', { hues: [[35, 50]] }],
  ['green', { hues: [[75, 165]] }],
  ['teal', { hues: [[165, 190]] }],
  ['cyan', { hues: [[175, 200]] }],
  ['blue', { hues: [[195, 250]] }],
  ['indigo', { hues: [[230, 260]] }],
  ['purple', { hues: [[255, 300]] }],
  ['violet', { hues: [[255, 290]] }],
  ['pink', { hues: [[300, 350]] }],
  ['magenta', { hues: [[290, 330]] }],
  ['black', { dark: true }],
  ['dark', { dark: true }],
  ['white', { light: true }],
  ['light', { light: true }],
]);

/** Words for where on the page an element is. */
export const POSITIONS = new Set(['left', 'right', 'top', 'bottom', 'upper', 'lower']);

/**
 * What a chart draws, as people say it ("the pie chart", "the revenue bars"): matched against the
 * kinds the page's chart library reports (page-candidates.ts, chart-kinds.ts).
 */
export const CHART_KINDS = new Map<string, string>([
  ['area', 'area'],
  ['line', 'line'],
  ['lines', 'line'],
  ['pie', 'pie'],
  ['donut', 'donut'],
  ['doughnut', 'donut'],
  ['ring', 'donut'],
  ['bar', 'bar'],
  ['bars', 'bar'],
  ['column', 'bar'],
  ['columns', 'bar'],
  ['histogram', 'bar'],
  ['radar', 'radar'],
  ['spider', 'radar'],
  ['polar', 'polar'],
  ['scatter', 'scatter'],
  ['bubble', 'bubble'],
  ['candlestick', 'candlestick'],
  ['heatmap', 'heatmap'],
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
  [/\btop[\s-]+bar\b/g, 'topbar'],
  [/\bheader[\s-]+bar\b/g, 'headerbar'],
  [/\bto[\s-]+dos?\b/g, 'todo'],
  [/\bmenu[\s-]+bar\b/g, 'menubar'],
  [/\btool[\s-]+bar\b/g, 'toolbar'],
  [/\bstatus[\s-]+bar\b/g, 'statusbar'],
  [/\bprogress[\s-]+bars\b/g, 'progressbars'],
  [/\bprogress[\s-]+bar\b/g, 'progressbar'],
  [/\bside[\s-]+nav\b/g, 'sidenav'],
  [/\bfoot[\s-]+er\b/g, 'footer'],
];
