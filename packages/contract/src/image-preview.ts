/**
 * The preview of a render (`GET /cdn/preview/{id}.{ext}`): the image made small enough to hand
 * to a language model, as the MCP server's `include_image` does. Language-model hosts refuse
 * images over a few thousand pixels or a few MB (a full page at dpr 2 is 3136x10256, 3.4 MB
 * base64); 1568 px is the longest side above which such hosts downscale anyway. Shared by the
 * server (which makes the preview) and the CLI (which decides when an image needs one).
 */
export const IMAGE_PREVIEW_LIMITS = { maxSide: 1568, maxBytes: 1_000_000 } as const;

/** The preview URL of a render URL (`.../cdn/r/{file}` -> `.../cdn/preview/{file}`), or null. */
export function previewUrlOf(renderUrl: string): string | null {
  const match = /^(.*)\/cdn\/r\/([^/?#]+)$/.exec(renderUrl);
  return match ? `${match[1]}/cdn/preview/${match[2]}` : null;
}
