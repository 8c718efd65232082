import { z } from 'zod';
import { parseAllowTarget } from '../netpolicy/address-classifier.ts';
import { section, variable } from './variable.ts';

function commaList(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

const allowTargets = z
  .string()
  .optional()
  .transform((value) => commaList(value ?? ''))
  .superRefine((entries, ctx) => {
    for (const entry of entries) {
      const parsed = parseAllowTarget(entry);
      if ('error' in parsed) ctx.addIssue({ code: 'custom', message: parsed.error });
    }
  });

const allowedPorts = z
  .string()
  .transform(commaList)
  .pipe(
    z
      .array(
        z
          .string()
          .regex(/^\d{1,5}$/)
          .transform(Number)
          .pipe(z.number().int().min(1).max(65535)),
      )
      .min(1),
  );

/** Outbound network policy (security.md section 1): what captures and server-side fetches may reach. */
export const networkSection = section('Network policy', {
  allowTargets: variable({
    env: 'VITRINE_ALLOW_TARGETS',
    schema: allowTargets,
    form: 'a comma-separated list of host names, IP addresses or CIDR blocks, e.g. intranet.example,10.1.0.0/16',
    description:
      'Targets opened even though they are private (any port on them). Everything else must be a public address on an allowed port.',
    defaultText: '',
  }),
  allowedPorts: variable({
    env: 'VITRINE_ALLOWED_PORTS',
    schema: allowedPorts,
    form: 'a comma-separated list of ports from 1 to 65535',
    description: 'Ports captures and server-side fetches may connect to on public hosts.',
    defaultText: '80,443',
  }),
});
