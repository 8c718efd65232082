import { ID_PREFIXES, REQUEST_FORMATS, type RequestFormat } from '@vitrine/contract';

/**
 * The public file name of a render, `{id}.{ext}`: `cap_` + 26 Crockford base32 characters (the
 * ULID alphabet, without I, L, O, U) and one of the output formats (images, and videos with their posters). Anything else is not a render.
 */
export const RENDER_FILE_PATTERN = new RegExp(
  `^(${ID_PREFIXES.capture}[0-9A-HJKMNP-TV-Z]{26})\\.(${REQUEST_FORMATS.join('|')})$`,
);

/**
 * Where a render's bytes live in the blob store: `renders/{id}.{ext}`, the same in every store,
 * so the render pipeline (writer) and the CDN route (reader) agree. Flat: ids are unique and
 * time-ordered, S3 needs no sharding, and local file systems index large directories.
 */
export function renderKey(id: string, ext: RequestFormat): string {
  return `renders/${id}.${ext}`;
}

/** The id and format of a public render file name, or null when it is not one. */
export function parseRenderFile(file: string): { id: string; ext: RequestFormat } | null {
  const match = RENDER_FILE_PATTERN.exec(file);
  if (!match) return null;
  return { id: match[1]!, ext: match[2] as RequestFormat };
}
