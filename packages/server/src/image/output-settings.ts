import type { OutputFormat } from '@vitrine/contract';

/**
 * The output of a capture after defaults, in its one shape: what the plan carries, the compose
 * stage sizes the canvas from, the encode stage encodes to and `resolved_params` shows. Sizes are
 * CSS pixels (the image is `width x dpr` pixels wide); null: not asked for.
 */
export interface OutputSettings {
  format: OutputFormat;
  width: number | null;
  height: number | null;
  quality: number | null;
  dpr: 1 | 2 | 3;
}
