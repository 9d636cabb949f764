import { baseConfigShape, booleanFromEnv, userServiceConfigShape } from '@haven/platform';
import { z } from 'zod';
import { defaultStalledAfterMs, sweepIntervalMs } from './events/newsletter-fanout';
import { retentionSweepIntervalMs } from './jobs/retention-sweep';
import { defaultClaimLeaseMs } from './providers/mailer';

/** The notification service's environment, described in docs/configuration.md (`make docs`). */
export const notificationConfigShape = {
  ...baseConfigShape('notification'),
  ...userServiceConfigShape,
  SMTP_HOST: z.string().min(1).default('127.0.0.1').describe('SMTP server'),
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(1025).describe('SMTP port'),
  SMTP_SECURE: booleanFromEnv
    .default(false)
    .describe('`true`: TLS from the first byte (port 465); `false`: plain or STARTTLS (587, 25, 1025)'),
  SMTP_USER: z.string().optional().meta({ description: 'SMTP user; empty = no authentication', unset: 'empty' }),
  SMTP_PASS: z.string().optional().meta({ description: 'SMTP password; empty = no authentication', unset: 'empty' }),
  /** Pooled SMTP connections the newsletter fan-out may keep open at once. */
  SMTP_MAX_CONNECTIONS: z.coerce
    .number()
    .int()
    .min(1)
    .max(50)
    .default(10)
    .describe('pooled SMTP connections the mailer keeps open (the newsletter fan-out sends over them)'),
  MAIL_FROM: z.string().min(3).default('Haven <hello@haven.local>').describe('From: of every e-mail'),
  APP_URL: z.url().default('http://localhost:4000').describe('public origin used for links in e-mails'),
  PRODUCT_NAME: z
    .string()
    .min(1)
    .default('Haven')
    .describe('product name in e-mails (read by the service; not set by our deploy files)'),
  /** How often the weekly summary's scheduler looks for users inside their Sunday-morning window. */
  WEEKLY_SUMMARY_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(3_600_000)
    .default(300_000)
    .describe("how often the weekly summary's scheduler looks for users in their Sunday window"),
  /** How often the check-in reminder's scheduler looks for users inside the hour they picked. */
  CHECK_IN_REMINDER_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(1_800_000)
    .default(300_000)
    .describe("how often the check-in reminder's scheduler looks for users in the hour they picked"),
  /** How often the newsletter's sweep finishes sends that stopped making progress. */
  NEWSLETTER_SWEEP_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(3_600_000)
    .default(sweepIntervalMs)
    .describe('how often a newsletter send that stopped making progress is finished by the sweep'),
  /** How long without a copy recorded makes an unfinished newsletter send stalled, for the sweep to finish. */
  NEWSLETTER_STALLED_AFTER_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(3_600_000)
    .default(defaultStalledAfterMs)
    .describe('how long without a copy recorded makes an unfinished send stalled, for the sweep'),
  /** How long an e-mail's claim belongs to the process that took it; past it, a killed holder's claim is taken again. */
  NEWSLETTER_CLAIM_LEASE_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(3_600_000)
    .default(defaultClaimLeaseMs)
    .describe(
      "how long an e-mail's claim belongs to the process that took it (a killed one's is taken again after it)",
    ),
  /** How often old delivery records and unsubscribed or never-confirmed subscribers are deleted (domain/retention.ts). */
  RETENTION_SWEEP_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(86_400_000)
    .default(retentionSweepIntervalMs)
    .describe(
      "how often the delivery log's records (90 days), unsubscribed addresses (30 days) and never-confirmed ones (a week after their link expired) are deleted",
    ),
};
