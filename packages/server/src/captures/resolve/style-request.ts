import type { ComposeFields, OutputOptions } from '@vitrine/contract';

/** The styling part of a capture request: the compose fields plus `output`. */
export type StyleRequest = ComposeFields & { output?: OutputOptions | undefined };
