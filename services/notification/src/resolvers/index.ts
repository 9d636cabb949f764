import {
  badInput,
  canonicalEmail,
  forbidden,
  isHavenId,
  mayReadUser,
  notYoursMessage,
  requestLoader,
  requireAdmin,
  requireSession,
  recordEvent,
  serviceUnavailable,
  toCsv,
  type PersonKeyring,
} from '@haven/platform';
import type { Model } from 'mongoose';
import { randomUUID } from 'node:crypto';
import { exportFileName } from '../domain/csv';
import {
  checkDraft,
  isWellFormedToken,
  messages,
  unsubscribeTokenOf,
  sourceMaxLength,
  testSubjectOf,
  type NewsletterDraft,
} from '../domain/newsletter';
import { renderNewsletterEmail } from '../domain/newsletter-emails';
import { choicesOf, type EmailPreferences } from '../domain/preferences';
import { stopMessages } from '../domain/stop-links';
import { reminderHourProblem } from '../domain/check-in-reminders';
import type { Mailer } from '../providers/mailer';
import { deliveryCountsOf, type CampaignRecord } from '../model/campaign';
import type { DeliveryRecord } from '../model/delivery';
import type { KnownUserRecord } from '../model/known-user';
import type { WeeklyCheckInsRecord } from '../model/weekly-check-ins';
import {
  confirm,
  subscribe,
  unsubscribeByEmail,
  unsubscribeByToken,
  unsubscribeUser,
  type NewsletterStore,
} from '../model/newsletter';
import { findPreferencesByUserIds, stopByLink } from '../model/preferences';
import { exportResolvers } from './export';
import type { Resolvers } from './types.generated';

export interface NotificationModels extends NewsletterStore {
  campaigns: Model<CampaignRecord>;
  deliveries: Model<DeliveryRecord>;
  knownUsers: Model<KnownUserRecord>;
  tallies: Model<WeeklyCheckInsRecord>;
  /** Opens what is sealed under each person's key (the tallies' days). */
  keyring: PersonKeyring;
}

const preferenceFields = ['marketingEmails', 'productUpdates', 'securityNotifications', 'newsletter'] as const;
/** Added after the first four switches: optional in the body, so a client that does not know it leaves it as it is. */
const optionalPreferenceFields = ['weeklySummary', 'checkInReminder'] as const;

const testNotSentMessage =
  "We couldn't send the test just now. Nothing went to your subscribers. Please try again in a minute.";

/** What the resolvers need to render and send a newsletter themselves (the test copy, the preview). */
export interface NewsletterRendering {
  mailer: Mailer;
  appUrl: string;
  productName: string;
  /** The key the links in e-mails are signed with (domain/stop-links.ts, domain/newsletter.ts). */
  linkKey: Buffer;
}

/** A draft every newsletter route accepts, or a 400 naming the first field at fault (nothing stored or sent). */
function draftFrom(subject: string, content: string): NewsletterDraft {
  const checked = checkDraft(subject, content);
  if (!checked.ok) throw badInput(checked.problems[0]!.field, checked.problems[0]!.message, checked.problems);
  return checked.draft;
}

/** An address from a body: canonical, or a 400 naming the field. */
function emailFrom(raw: string): string {
  const email = canonicalEmail(raw);
  if (!email.ok) throw badInput('email', email.message);
  return email.address;
}

type SwitchesInput = Record<(typeof preferenceFields)[number], number> &
  Partial<Record<(typeof optionalPreferenceFields)[number] | 'reminderHour', number | null>>;

/**
 * Each switch travels as 0 or 1; anything else is refused, naming the switch. An optional switch
 * left out is not in the answer (it keeps its saved value); sent, it follows the same rule.
 */
function switchesFrom(input: SwitchesInput): Partial<EmailPreferences> {
  const sent = [...preferenceFields, ...optionalPreferenceFields.filter((field) => input[field] !== undefined)];
  const problems = sent
    .filter((field) => input[field] !== 0 && input[field] !== 1)
    .map((field) => ({ field, message: `${field} must be 0 or 1` }));
  if (problems.length > 0) throw badInput(problems[0]!.field, problems[0]!.message, problems);
  return Object.fromEntries(sent.map((field) => [field, input[field] === 1]));
}

/** The reminder's hour when the body sets it (left out, the saved hour stays), or a 400 naming it. */
function reminderHourFrom(input: SwitchesInput): { reminderHour?: number } {
  if (input.reminderHour === undefined) return {};
  const problem = reminderHourProblem(input.reminderHour);
  if (problem) throw badInput('reminderHour', problem);
  return { reminderHour: input.reminderHour! };
}

export function notificationResolvers(models: NotificationModels, rendering: NewsletterRendering): Resolvers {
  const { preferences, subscribers, campaigns, deliveries, knownUsers } = models;
  // The preview and the test copy carry a token for an id no subscriber has: its link looks like the real one and
  // unsubscribes nobody.
  const renderDraft = (draft: NewsletterDraft, subject = draft.subject) =>
    renderNewsletterEmail({
      productName: rendering.productName,
      appUrl: rendering.appUrl,
      subject,
      safeHtml: draft.html,
      unsubscribeToken: unsubscribeTokenOf(rendering.linkKey, randomUUID()),
    });
  return {
    User: {
      ...exportResolvers(models).User,
      // A user's e-mail preferences are the owner's or an admin's to read.
      __resolveReference: async (reference, context) =>
        (await mayReadUser(context, reference.id)) ? { id: reference.id } : null,
      emailPreferences: async ({ id }, _args, context) => {
        const loader = requestLoader(context, 'preferences', (ids) => findPreferencesByUserIds(preferences, ids));
        return choicesOf(await loader.load(id));
      },
      emailConsent: async ({ id }, _args, context) => {
        const loader = requestLoader(context, 'preferences', (ids) => findPreferencesByUserIds(preferences, ids));
        const saved = await loader.load(id);
        return { consentGivenAt: saved?.consentGivenAt?.toISOString() ?? null };
      },
    },
    Query: {
      newsletterStats: async (_parent, _args, context) => {
        await requireAdmin(context);
        const [total, active, last] = await Promise.all([
          subscribers.countDocuments({ status: { $in: ['pending', 'active'] } }),
          subscribers.countDocuments({ status: 'active' }),
          campaigns
            .findOne({}, { subject: 1, recipients: 1, createdAt: 1, deliveryCounts: 1 })
            .sort({ createdAt: -1 })
            .lean(),
        ]);
        let lastCampaign = null;
        if (last) {
          const { sent, failed } = await deliveryCountsOf({ campaigns, deliveries }, last);
          lastCampaign = {
            id: last._id,
            subject: last.subject,
            recipients: last.recipients,
            sent,
            failed,
            createdAt: last.createdAt.toISOString(),
          };
        }
        return { total, active, pending: total - active, lastCampaign };
      },
      newsletterSubscribersExport: async (_parent, _args, context) => {
        await requireAdmin(context);
        const all = await subscribers
          .find({}, { email: 1, status: 1, source: 1, createdAt: 1, confirmedAt: 1, unsubscribedAt: 1 })
          .sort({ createdAt: 1 })
          .lean();
        const iso = (date: Date | null | undefined) => date?.toISOString() ?? '';
        const csv = toCsv(
          ['email', 'status', 'source', 'subscribedAt', 'confirmedAt', 'unsubscribedAt'],
          all.map((s) => [s.email, s.status, s.source, iso(s.createdAt), iso(s.confirmedAt), iso(s.unsubscribedAt)]),
        );
        return { fileName: exportFileName(), csv };
      },
      newsletterAudience: async (_parent, _args, context) => {
        await requireAdmin(context);
        return { activeSubscribers: await subscribers.countDocuments({ status: 'active' }) };
      },
      newsletterPreview: async (_parent, { subject, content }, context) => {
        await requireAdmin(context);
        const draft = draftFrom(subject, content);
        return { subject: draft.subject, html: renderDraft(draft).html };
      },
    },
    Mutation: {
      subscribeToNewsletter: async (_parent, { input }, context) => {
        const email = emailFrom(input.email);
        const source = input.subscriptionSource ?? 'website';
        if (source.length > sourceMaxLength || !/^[a-z0-9_-]+$/i.test(source)) {
          throw badInput('subscriptionSource', 'subscriptionSource must be a short word such as "website"');
        }
        if (input.userId != null && !isHavenId(input.userId)) {
          throw badInput('userId', 'userId must be a user id');
        }
        // A userId in the body links the address only when it is the caller's own.
        const userId = input.userId && context.session?.userId === input.userId ? input.userId : null;
        await subscribe(models, { email, userId, source, confirmed: false, correlationId: context.correlationId });
        return { message: messages.subscribed };
      },
      confirmNewsletterSubscription: async (_parent, { token }) => {
        if (!isWellFormedToken(token) || !(await confirm(models, token))) {
          throw badInput('token', messages.invalidConfirmation);
        }
        return { confirmed: true, message: messages.confirmed };
      },
      unsubscribeFromNewsletterByToken: async (_parent, { token }) => {
        if (!(await unsubscribeByToken(models, rendering.linkKey, token))) {
          throw badInput('token', messages.invalidUnsubscribe);
        }
        return { unsubscribed: true, message: messages.unsubscribed };
      },
      unsubscribeFromNewsletterByEmail: async (_parent, { email }) => {
        await unsubscribeByEmail(models, emailFrom(email));
        return { unsubscribed: true, message: messages.unsubscribed };
      },
      sendNewsletter: async (_parent, { subject, content }, context) => {
        const session = await requireAdmin(context);
        const { subject: trimmedSubject, html } = draftFrom(subject, content);
        const recipients = await subscribers.countDocuments({ status: 'active' });
        if (recipients === 0) return { sentCount: 0 };
        const campaign = new campaigns({
          _id: randomUUID(),
          subject: trimmedSubject,
          html,
          recipients,
          createdBy: session.userId,
          createdAt: new Date(),
        });
        // One event starts the fan-out; workers expand it page by page (events/newsletter-fanout.ts).
        recordEvent(campaign, {
          type: 'notification.newsletter_batch_requested',
          producer: 'notification',
          subjectId: campaign._id,
          correlationId: context.correlationId,
          payload: { campaignId: campaign._id, afterSubscriberId: '' },
        });
        await campaign.save();
        models.publishSoon();
        return { sentCount: recipients };
      },
      sendTestNewsletter: async (_parent, { subject, content }, context) => {
        const session = await requireAdmin(context);
        const draft = draftFrom(subject, content);
        const admin = await knownUsers.findById(session.userId, { email: 1 }).lean();
        if (!admin) throw serviceUnavailable(testNotSentMessage);
        // Its own delivery, under an id of its own: never a campaign, never counted in the list's numbers.
        const outcome = await rendering.mailer
          .deliverOnce({
            eventId: randomUUID(),
            kind: 'newsletter-test',
            userId: session.userId,
            to: admin.email,
            email: renderDraft(draft, testSubjectOf(draft.subject)),
          })
          .catch((error: unknown) => {
            context.log.warn({ err: error }, 'newsletter test copy not handed over');
            return 'retryable' as const;
          });
        if (outcome !== 'sent') throw serviceUnavailable(testNotSentMessage);
        return { sentTo: admin.email };
      },
      stopEmailsByLink: async (_parent, { token }) => {
        const stopped = await stopByLink(models, rendering.linkKey, token);
        if (!stopped) throw badInput('token', stopMessages.invalid);
        return { stopped: true, ...stopped };
      },
      updateEmailPreferences: async (_parent, { input }, context) => {
        const session = requireSession(context);
        if (input.userId != null && input.userId !== session.userId) throw forbidden(notYoursMessage);
        const wanted = { ...switchesFrom(input), ...reminderHourFrom(input) };
        const now = new Date();
        const before = await preferences
          .findOneAndUpdate(
            { _id: session.userId },
            { $set: { ...wanted, updatedAt: now }, $setOnInsert: { consentGivenAt: now } },
            { upsert: true, returnDocument: 'before' },
          )
          .lean();
        if (before && before.consentGivenAt == null) {
          await preferences.updateOne({ _id: session.userId, consentGivenAt: null }, { $set: { consentGivenAt: now } });
        }
        // The switch and the list move together: on subscribes (no second confirmation for a verified
        // address), off takes every address of this account off the list.
        const known = await knownUsers.findById(session.userId).lean();
        if (wanted.newsletter && !before?.newsletter) {
          if (known) {
            await subscribe(models, {
              email: known.email,
              userId: session.userId,
              source: 'preferences',
              confirmed: known.emailVerified,
              correlationId: context.correlationId,
              keepPending: true,
            });
          } else {
            // The list follows when the account arrives (the user.registered handler reads this switch).
            context.log.info(
              { userId: session.userId },
              'newsletter switched on before the account reached this service; subscribed when it does',
            );
          }
        } else if (!wanted.newsletter) {
          await unsubscribeUser(models, session.userId, known?.email ?? null);
        }
        return choicesOf({ ...choicesOf(before), ...wanted });
      },
    },
  };
}
