import type { Brand } from '@vitrine/contract';
import type { StyleRequest } from '../compose/style-types.ts';

/**
 * The AI part of a ResolvedCapture: plain data decided at resolve time (which assists were asked
 * for, the project's brand, the request's own styling fields); the decision itself is made after
 * the page is captured, from its signals, by the render pipeline's AI step.
 */
export interface AiPlan {
  style: boolean;
  copy: boolean;
  brand: boolean;
  prompt: string | null;
  /** The request's own styling fields: laid over every AI choice (explicit fields always win). */
  request: StyleRequest;
  /** The project's completed brand, when `ai_brand` and the project has one; else the page's own. */
  projectBrand: Brand | null;
}
