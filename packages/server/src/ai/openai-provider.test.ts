import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatCompletionsDouble } from '../../../../test/support/chat-completions-double.ts';
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
  const outline = [
    { index: 0, summary: 'header nav: Home, Docs' },
    { index: 2, summary: 'section.pricing: three plans with prices' },
  ];
  const provider = () =>
    createOpenAiProvider({ baseUrl: double.baseUrl, apiKey: undefined, model: 'm', timeoutMs: 5000 });

  it("asks the model with the compact outline and returns the candidate's index", async () => {
    answer = '{"index": 2}';
    expect(await provider().chooseElement('the pricing table', outline)).toBe(2);
    const sent = JSON.stringify(double.requests.at(-1)?.body.messages);
    expect(sent).toContain('the pricing table');
    expect(sent).toContain('2: section.pricing');
  });

  it('returns null for an index not offered, garbage, or no candidates', async () => {
    answer = '{"index": 7}';
    expect(await provider().chooseElement('x', outline)).toBeNull();
    answer = 'the second one';
    expect(await provider().chooseElement('x', outline)).toBeNull();
    expect(await provider().chooseElement('x', [])).toBeNull();
  });
});
