import { baseConfigShape, userServiceConfigShape } from '@haven/platform';
import { z } from 'zod';
import { webhookRecordsSweepIntervalMs } from './jobs/webhook-records-sweep';

const flag = z
  .enum(['0', '1', 'true', 'false'])
  .default('0')
  .transform((value) => value === '1' || value === 'true');

/** The billing service's environment, described in docs/configuration.md (`make docs`). */
export const billingConfigShape = {
  ...baseConfigShape('billing'),
  ...userServiceConfigShape,
  /** Tests only: a clock that advanceBillingClock moves forward. */
  BILLING_TEST_CLOCK: flag.describe(
    "`1`: tests and `make bench` may move billing's clock forward (`advanceBillingClock`) to end trials; never in production",
  ),
  BILLING_SCHEDULER_INTERVAL_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(10_000)
    .describe('how often the scheduler looks for trial and period ends (local provider) and trial reminders'),
  /** How long the data export's history of subscription changes is kept, by billing's clock. */
  BILLING_HISTORY_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(1)
    .default(365)
    .describe(
      "how long the data export's history of subscription changes is kept (billing's clock); the scheduler sweeps older entries",
    ),
  /** How often Stripe's processed event ids and old subscription starts are deleted (domain/retention.ts). */
  BILLING_WEBHOOK_RECORDS_SWEEP_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(86_400_000)
    .default(webhookRecordsSweepIntervalMs)
    .describe(
      "how often Stripe's processed event ids and subscription starts no setup can claim again are deleted, 30 days on",
    ),
  /** Set: cards go through Stripe. Unset: the local test-mode provider, which never charges anyone. */
  STRIPE_SECRET_KEY: z
    .string()
    .min(1)
    .optional()
    .describe(
      'set: cards go through Stripe (then `STRIPE_PRICE_ID` and `STRIPE_WEBHOOK_SECRET` are required); unset: the local test-mode provider',
    ),
  STRIPE_PUBLISHABLE_KEY: z.string().min(1).optional().describe("given to the web app for Stripe's Payment Element"),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .min(1)
    .optional()
    .describe("verifies Stripe's webhooks at `/hooks/billing/stripe/webhook`"),
  STRIPE_PRICE_ID: z.string().min(1).optional().describe('the Stripe Price of Premium (4.99 GBP a month)'),
  /** Another Stripe API origin (stripe-mock in tests). */
  STRIPE_API_URL: z
    .url()
    .optional()
    .meta({ description: 'another Stripe API origin: stripe-mock in tests', unset: 'unset (Stripe)' }),
  /** Production only: lets billing run on the local test-mode provider (a demo stack that takes no payments). */
  ALLOW_LOCAL_PAYMENTS: flag.describe(
    '`1`: production may start billing on the local test-mode provider (a demo); else it needs `STRIPE_SECRET_KEY`',
  ),
};
