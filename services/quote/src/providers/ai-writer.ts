/**
 * Where a quote's words come from: an OpenAI-compatible provider when a key is configured, Haven's own
 * offline composer otherwise, and the composer again whenever the provider fails or is slow.
 */
import { inSpan, SpanKind } from '@haven/platform';
import OpenAI from 'openai';
import { systemPrompt, userPrompt, type PromptInput } from '../domain/prompt';

export interface AiWriter {
  /** The provider's message, or a thrown error (the caller falls back to the composer). */
  write(input: PromptInput): Promise<string>;
}

export interface OpenAiConfig {
  OPENAI_API_KEY?: string;
  OPENAI_MODEL: string;
  OPENAI_BASE_URL?: string;
  OPENAI_TIMEOUT_MS: number;
}

/** Longest message kept from a provider; a longer one is cut at a sentence end. */
export const aiMessageMaxLength = 600;

/** Null when no key is set: the offline composer writes every quote. */
export function openAiWriter(config: OpenAiConfig): AiWriter | null {
  if (!config.OPENAI_API_KEY) return null;
  const client = new OpenAI({
    apiKey: config.OPENAI_API_KEY,
    baseURL: config.OPENAI_BASE_URL,
    timeout: config.OPENAI_TIMEOUT_MS,
    // One attempt: a retry would push the reply past the gateway's timeout; the composer is the fallback.
    maxRetries: 0,
  });
  return {
    // One span per call: the model and how it went, never the prompt or the reply (a person's words).
    write: (input) =>
      inSpan(
        'ai chat',
        {
          kind: SpanKind.CLIENT,
          attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': config.OPENAI_MODEL },
        },
        async (span) => {
          let completion: OpenAI.Chat.Completions.ChatCompletion;
          try {
            completion = await client.chat.completions.create({
              model: config.OPENAI_MODEL,
              messages: [
                { role: 'system', content: systemPrompt },
                { role: 'user', content: userPrompt(input) },
              ],
              max_tokens: 200,
              temperature: 0.8,
            });
          } catch (error) {
            span.setAttribute(
              'haven.ai.outcome',
              error instanceof OpenAI.APIConnectionTimeoutError ? 'timeout' : 'failed',
            );
            if (error instanceof OpenAI.APIError && error.status !== undefined)
              span.setAttribute('http.response.status_code', error.status);
            throw error;
          }
          if (completion.usage) {
            span.setAttributes({
              'gen_ai.usage.input_tokens': completion.usage.prompt_tokens,
              'gen_ai.usage.output_tokens': completion.usage.completion_tokens,
            });
          }
          const text = completion.choices[0]?.message?.content?.trim() ?? '';
          if (text === '') {
            span.setAttribute('haven.ai.outcome', 'empty');
            throw new Error('the provider answered with no text');
          }
          span.setAttribute('haven.ai.outcome', text.length <= aiMessageMaxLength ? 'written' : 'cut');
          if (text.length <= aiMessageMaxLength) return text;
          const cut = text.slice(0, aiMessageMaxLength);
          return cut.slice(0, Math.max(cut.lastIndexOf('. ') + 1, 1)) || cut;
        },
      ),
  };
}
