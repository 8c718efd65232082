import type { PageType, Tone } from '../../packages/server/src/ai/ai-types.ts';

/** The labelled fixture set of the AI step (test/fixtures/pages/ai): what a person says each page is. */
export const AI_FIXTURES: { file: string; type: PageType; tone: Tone }[] = [
  { file: 'landing.html', type: 'landing', tone: 'colourful' },
  { file: 'landing-dark.html', type: 'landing', tone: 'dark' },
  { file: 'dashboard.html', type: 'dashboard', tone: 'dark' },
  { file: 'docs.html', type: 'docs', tone: 'minimal' },
  { file: 'shop.html', type: 'e-commerce', tone: 'light' },
  { file: 'blog.html', type: 'blog', tone: 'minimal' },
  { file: 'blog-minimal.html', type: 'blog', tone: 'minimal' },
  { file: 'pricing.html', type: 'pricing', tone: 'colourful' },
  { file: 'portfolio.html', type: 'portfolio', tone: 'dark' },
  { file: 'sign-in.html', type: 'app-sign-in', tone: 'minimal' },
];
