import { z } from 'zod';

/** GET /v1/usage (ext, docs/api-decisions.md section 3). */
export const usageResponseSchema = z
  .object({
    credits_remaining: z.number().int(),
    credits_monthly: z.number().int(),
    last_30_days: z.object({ render_count: z.number().int(), credits_used: z.number().int() }),
    daily_breakdown: z.array(
      z.object({
        day: z.string().meta({ description: 'YYYY-MM-DD (UTC)' }),
        renders: z.number().int(),
        credits: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'Usage' });
export type UsageResponse = z.infer<typeof usageResponseSchema>;
