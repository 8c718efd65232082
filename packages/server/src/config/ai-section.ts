import { z } from 'zod';
import { optionalString } from './parsers.ts';
import { section, variable } from './variable.ts';

/** AI assistance (docs/api-decisions.md section 10): the built-in engine unless a provider is configured. */
export const aiSection = section('AI assistance', {
  baseUrl: variable({
    env: 'VITRINE_AI_BASE_URL',
    schema: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    form: 'an absolute http(s) URL of an OpenAI-compatible API, e.g. https://api.openai.com/v1',
    description:
      'OpenAI-compatible chat-completions endpoint base (`/chat/completions` is appended). Unset: the built-in engine decides, with no network.',
  }),
  apiKey: variable({
    env: 'VITRINE_AI_API_KEY',
    schema: optionalString,
    form: 'a string',
    description: 'Bearer token sent to the AI provider; never logged.',
  }),
  model: variable({
    env: 'VITRINE_AI_MODEL',
    schema: z.string().min(1),
    form: 'a model name the provider knows',
    description: 'Model asked for decisions; it must accept an image in the chat messages.',
    defaultText: 'gpt-4o-mini',
  }),
  timeoutMs: variable({
    env: 'VITRINE_AI_TIMEOUT_MS',
    schema: z.coerce.number().int().min(500).max(120_000),
    form: 'milliseconds, from 500 to 120000',
    description: 'How long a capture waits for the provider before the built-in engine decides instead.',
    defaultText: '15000',
  }),
});
