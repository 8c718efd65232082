/** A box in document coordinates (CSS px). */
export interface DocumentBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What a candidate holds inside it: the structural evidence for "chart", "form", "table"... */
export interface CandidateContents {
  canvas: number;
  svg: number;
  tables: number;
  forms: number;
  inputs: number;
  passwords: number;
  emails: number;
  searches: number;
  buttons: number;
  images: number;
  links: number;
  headings: number;
  listItems: number;
  /** Amounts of money in its text ("$9", "€ 49"). */
  prices: number;
  /** The most children of one kind it lays out side by side or in a list (cards of a grid). */
  repeats: number;
}

/**
 * One element of the page that a description could mean, as the page script saw it: plain data,
 * no DOM handle (the element itself stays in the page, under its index).
 */
export interface ElementCandidate {
  index: number;
  /** Lower-case tag name. */
  tag: string;
  /** Explicit `role`, else the tag's implicit ARIA role, else "". */
  role: string;
  /** Accessible name: aria-label, aria-labelledby, title, alt, legend, caption, figcaption. */
  name: string;
  /** The heading this element is the section of ("" when it introduces none). */
  heading: string;
  /** Whether that heading is a drawn title (bold or large text, no heading element): weaker. */
  headingDrawn: boolean;
  /** Every heading's text inside it (capped). */
  innerHeadings: string;
  /** Identifiers (ids, classes) of what it holds, a few dozen distinct ones. */
  innerIdent: string;
  /** What the charts inside it draw (`area`, `line`, `bar`, `pie`, `donut`...), where known. */
  charts: string[];
  /** id, classes, data-testid, name: identifiers authors chose. */
  ident: string;
  /** The start of its visible text, whitespace collapsed. */
  text: string;
  /** Length of its whole text (long texts say little about what an element is). */
  textLength: number;
  contents: CandidateContents;
  box: DocumentBox;
  /** Index of the nearest ancestor that is also a candidate, or -1. */
  parent: number;
  /** Whether it has a visible surface of its own (background, border or shadow): a card, a panel. */
  surface: boolean;
  /** The colour it shows (its background, or its gradient's first colour) as "r g b", or "". */
  colour: string;
}

/** The page around the candidates: what layout sense needs. */
export interface PageLayout {
  viewportWidth: number;
  viewportHeight: number;
  documentWidth: number;
  documentHeight: number;
}

export interface CandidateSnapshot {
  candidates: ElementCandidate[];
  layout: PageLayout;
}
