import { z } from 'zod';

/** An optional variable: unset and empty both mean "not given". */
export const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v === '' ? undefined : v));

/** A boolean variable: true/false, 1/0, yes/no. */
export const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
