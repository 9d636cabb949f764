import {
  baseConfigShape,
  billingServiceConfigShape,
  personDataSealingConfigShape,
  userServiceConfigShape,
} from '@haven/platform';
import { z } from 'zod';

/** The AI provider (any OpenAI-compatible server); no key means the offline composer writes every quote. */
export const aiConfigShape = {
  OPENAI_API_KEY: z.string().min(1).optional().meta({
    description: "key of the AI text provider; unset, Haven's own offline composer writes every quote",
    unset: 'unset (offline composer)',
  }),
  OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini').describe('chat model asked for the quote'),
  OPENAI_BASE_URL: z.url().optional().meta({
    description: 'any OpenAI-compatible server (`http://host:port/v1`)',
    unset: "unset (OpenAI's own)",
  }),
  // Well inside the gateway's 10 s towards subgraphs, leaving time to fall back to the composer.
  OPENAI_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .max(8_000)
    .default(4_000)
    .describe("one attempt, no retry; on failure or timeout the composer writes the quote, inside the gateway's 10 s"),
};

/** The quote service's environment, described in docs/configuration.md (`make docs`). */
export const quoteConfigShape = {
  ...baseConfigShape('quote'),
  ...userServiceConfigShape,
  ...billingServiceConfigShape,
  ...aiConfigShape,
  ...personDataSealingConfigShape,
};
