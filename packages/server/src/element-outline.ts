/**
 * One candidate element as a picker sees it (never the page's HTML): the browser stage builds the
 * outline, an AI provider chooses from it. Shared here because neither room may import the other.
 */
export interface ElementOutlineEntry {
  index: number;
  /** One line: tag and role, identifiers, name, heading, contents, size and place, text start. */
  summary: string;
  role: string;
  heading: string;
  width: number;
  height: number;
  /** A small JPEG of the candidate's box (at most 256 px a side), as a data URL, when it could be taken. */
  crop?: string;
}
