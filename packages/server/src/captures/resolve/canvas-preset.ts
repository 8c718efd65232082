import { CANVAS_PRESETS, type CanvasName, type OutputOptions } from '@vitrine/contract';
import { AppError } from '../../errors/app-error.ts';

/**
 * `output` with a `canvas` preset applied: the preset's width and height (output pixels at
 * output.dpr 1). A preset fixes the image's pixel size, so it cannot be combined with
 * `output.width`, `output.height` or an `output.dpr` other than 1: a 400 naming both fields.
 * Without `canvas`, `output` as given.
 */
export function outputWithCanvas(request: {
  canvas?: CanvasName | undefined;
  output?: OutputOptions | undefined;
}): OutputOptions | undefined {
  const { canvas, output } = request;
  if (canvas === undefined) return output;
  const preset = CANVAS_PRESETS[canvas];
  const clash = (['width', 'height', 'dpr'] as const).filter(
    (k) => output?.[k] !== undefined && !(k === 'dpr' && output.dpr === 1),
  );
  if (clash.length > 0) {
    const fields = clash.map((k) => `output.${k}`);
    const message = `canvas ${canvas} sets the image to ${preset.width}x${preset.height} px: give either canvas or ${fields.join(' and ')}, not both`;
    throw new AppError('invalid_params', `Invalid canvas. ${message}`, {
      details: { issues: ['canvas', ...fields].map((path) => ({ path, message })) },
    });
  }
  return { ...output, width: preset.width, height: preset.height };
}

/** The canvas short side the default title, subtitle and padding sizes were chosen for (Open Graph). */
const BASE_SHORT_SIDE = 630;

/**
 * How much larger than their defaults the title, subtitle and padding are on a `canvas`: in
 * proportion to the canvas's short side against Open Graph's 630 px (1 for og, linkedin,
 * twitter; about 1.7 for the 1080 px stories and squares; 2.1 for the App Store's 1320 px), so
 * a headline keeps its weight on a tall store screenshot. 1 without a canvas.
 */
export function canvasTextScale(canvas: CanvasName | undefined): number {
  if (canvas === undefined) return 1;
  const { width, height } = CANVAS_PRESETS[canvas];
  return Math.max(1, Math.min(width, height) / BASE_SHORT_SIDE);
}
