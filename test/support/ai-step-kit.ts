import type { AiPlan } from '../../packages/server/src/ai/ai-plan.ts';
import type { AiStep } from '../../packages/server/src/ai/ai-step.ts';
import type { PageCapture } from '../../packages/server/src/browser/page-capture-options.ts';
import type { AiOverlay } from '../../packages/server/src/captures/resolve/ai-overlay.ts';
import { applyAiChoices } from '../../packages/server/src/captures/resolve/resolve-capture.ts';
import {
  resolveOutput,
  resolveStyle,
  type StyleRequest,
} from '../../packages/server/src/captures/resolve/resolve-style.ts';

/** An AI plan as a test writes it: the assists, and the request's own styling fields. */
export type AiTestPlan = Omit<AiPlan, 'fixed'> & { request: StyleRequest };

/**
 * What the pipeline does with an AI capture after the page was captured: the request resolved
 * into a plan, the AI step's choices, and the resolver's overlay of them (the style composed).
 */
export async function decideStyle(
  step: AiStep,
  { request, ...flags }: AiTestPlan,
  shot: PageCapture,
  signal: AbortSignal,
): Promise<AiOverlay> {
  const output = resolveOutput(request.output);
  const style = resolveStyle(request, output);
  const fixed = Object.keys(request).filter(
    (key) => key !== 'output' && (request as Record<string, unknown>)[key] !== undefined,
  );
  const ai: AiPlan = { ...flags, fixed };
  return applyAiChoices({ style, output, ai }, await step(ai, shot, signal));
}
