import type { Brand } from '@vitrine/contract';

/**
 * The AI part of a capture's plan: plain data decided at resolve time (which assists were asked
 * for, the project's brand, which styling fields the caller fixed); the decision itself is made
 * after the page is captured, from its signals, by the AI step, which returns choices. The
 * capture service's resolver lays them under the fixed fields (captures/resolve/ai-overlay.ts).
 */
export interface AiPlan {
  style: boolean;
  copy: boolean;
  brand: boolean;
  prompt: string | null;
  /**
   * The styling fields the request set (names only; their values are in the plan's resolved
   * style): explicit fields always win over the AI's choices.
   */
  fixed: string[];
  /** The project's completed brand, when `ai_brand` and the project has one; else the page's own. */
  projectBrand: Brand | null;
}
