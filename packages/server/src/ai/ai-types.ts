import type { CaptureRequest } from '@vitrine/contract';
import type { ElementOutlineEntry } from '../element-outline.ts';

/** Page types the AI step tells apart (issue 13). */
export const PAGE_TYPES = [
  'landing',
  'dashboard',
  'docs',
  'e-commerce',
  'blog',
  'pricing',
  'portfolio',
  'app-sign-in',
] as const;
export type PageType = (typeof PAGE_TYPES)[number];

/** Tones read from the screenshot's palette. */
export const TONES = ['dark', 'light', 'colourful', 'minimal'] as const;
export type Tone = (typeof TONES)[number];

/**
 * What the page says about itself, gathered in the same page load as the screenshot (never a
 * second navigation): text signals for copy, DOM counts for the page type, computed colours and
 * fonts for a brand. Plain data: it travels from the capture stage to the AI step.
 */
export interface PageSignals {
  title: string;
  h1: string | null;
  metaDescription: string | null;
  ogTitle: string | null;
  ogDescription: string | null;
  ogSiteName: string | null;
  themeColor: string | null;
  /** Lower-cased visible text, first 3000 characters. */
  text: string;
  wordCount: number;
  counts: {
    forms: number;
    passwordInputs: number;
    inputs: number;
    tables: number;
    charts: number;
    codeBlocks: number;
    articles: number;
    times: number;
    prices: number;
    headings: number;
    images: number;
    buttons: number;
    navLinks: number;
    asides: number;
    products: number;
  };
  /** Computed colours (CSS strings) of primary buttons, links and headings. */
  colors: {
    buttons: string[];
    links: string[];
    headings: string[];
    customProperties: string[];
    /** Computed colour and background of the body (the page's own text and ground). */
    body?: { text: string; background: string };
  };
  /**
   * Computed first font family of headings and body, and the `@font-face` sources the page
   * declares for each (nearest weight first; absent in signals gathered before issue 34).
   */
  fonts: {
    heading: string | null;
    body: string | null;
    sources?: {
      heading: FontFaceSource[];
      body: FontFaceSource[];
      /** The generic family the computed list ends in (serif, monospace...), for the fallback. */
      headingGeneric: string | null;
      bodyGeneric: string | null;
    };
  };
  /** Absolute URLs of the page's brand images (brand extraction); inline SVG logo as markup. */
  assets?: {
    logo: string | null;
    inlineSvgLogo: string | null;
    appleTouchIcon: string | null;
    icons: string[];
    ogImage: string | null;
  };
}

/** One `src` entry of a page's `@font-face` rule: an absolute URL (or data: URL), its declared format. */
export interface FontFaceSource {
  url: string;
  format: string | null;
  weight: number;
}

/** Colours of the screenshot: the dominant ones (hex), most frequent first, and its tone metrics. */
export interface ScreenshotPalette {
  colors: string[];
  /** Mean relative luminance 0..1. */
  luminance: number;
  /** Mean chroma (OKLCH C) of the pixels. */
  chroma: number;
}

/** The AI-chosen request fields: a subset of the contract's capture fields. */
export type ChosenFields = Partial<
  Pick<
    CaptureRequest,
    | 'background_preset'
    | 'background_gradient'
    | 'shadow'
    | 'border'
    | 'camera_preset'
    | 'perspective'
    | 'padding'
    | 'corner_radius'
    | 'aspect_ratio'
    | 'device'
    | 'title_font'
    | 'title_size'
    | 'title_position'
  >
>;

export interface AiCopy {
  headline: string | null;
  subtitle: string | null;
  badge: string | null;
}

/** One decision of a provider, before explicit fields are laid over it. */
export interface AiDecision {
  engine: string;
  page_type: PageType;
  tone: Tone;
  audience: string;
  chosen: ChosenFields;
  copy: AiCopy;
  reasons: string[];
  /** E.g. "The AI provider answered something unusable; the built-in engine decided". */
  warnings: string[];
}

/** What a provider is given: the page's signals, its palette, a thumbnail, the wishes. */
export interface AiInput {
  signals: PageSignals;
  palette: ScreenshotPalette;
  /** A 400x300 PNG of the screenshot (what a vision model sees). */
  thumbnail: Buffer;
  style: boolean;
  copy: boolean;
  prompt: string | null;
}

/** An AI provider: the built-in engine, or an OpenAI-compatible model. */
export interface AiProvider {
  readonly name: string;
  decide(input: AiInput, signal: AbortSignal): Promise<AiDecision>;
  /**
   * Chooses the element a plain-language query means among candidates (element capture): the
   * candidate's index, `'none'` when none of them is meant, or null to leave the choice to the
   * resolver's own scoring.
   */
  chooseElement(query: string, outline: ElementOutlineEntry[]): Promise<number | 'none' | null>;
}
