import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatCompletionsDouble } from '../../../../test/support/chat-completions-double.ts';
import type { ElementOutlineEntry } from '../element-outline.ts';
import { createOpenAiProvider } from './openai-provider.ts';

describe('OpenAI-compatible chooseElement', () => {
  let answer = '{"index": 2}';
  let double: Awaited<ReturnType<typeof startChatCompletionsDouble>>;
  beforeAll(async () => {
    double = await startChatCompletionsDouble(() => answer);
  });
  afterAll(async () => {
    await double?.close();
  });
  const outline: ElementOutlineEntry[] = [
    { index: 0, summary: 'header nav: Home, Docs', role: 'navigation', heading: '', width: 1280, height: 64 },
    {
      index: 2,
      summary: 'section.pricing: three plans with prices',
      role: 'region',
      heading: 'Plans',
      width: 1200,
      height: 520,
      crop: 'data:image/jpeg;base64,AAAA',
    },
  ];
  const provider = () =>
    createOpenAiProvider({ baseUrl: double.baseUrl, apiKey: undefined, model: 'm', timeoutMs: 5000 });

  it("asks the model with the outline (roles, headings, sizes) and each crop, and returns the candidate's index", async () => {
    answer = '{"index": 2}';
    expect(await provider().chooseElement('the pricing table', outline)).toBe(2);
    const sent = JSON.stringify(double.requests.at(-1)?.body.messages);
    expect(sent).toContain('the pricing table');
    expect(sent).toContain('2: region titled \\"Plans\\", 1200x520 px. section.pricing');
    expect(sent).toContain('"type":"image_url","image_url":{"url":"data:image/jpeg;base64,AAAA"}');
  });

  it('returns "none" when the model says none of them, null for an index not offered, garbage, or no candidates', async () => {
    answer = '{"index": null}';
    expect(await provider().chooseElement('x', outline)).toBe('none');
    answer = '{"index": 7}';
    expect(await provider().chooseElement('x', outline)).toBeNull();
    answer = 'the second one';
    expect(await provider().chooseElement('x', outline)).toBeNull();
    answer = '{}';
    expect(await provider().chooseElement('x', outline)).toBeNull();
    expect(await provider().chooseElement('x', [])).toBeNull();
  });
});
