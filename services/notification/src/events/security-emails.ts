import { topicOf } from '@haven/proto';
import { linkTokenOf, type ConsumerSpec, type MailTokenSealer } from '@haven/platform';
import type { Model } from 'mongoose';
import { mayReceive, type EmailKind } from '../domain/email-kinds';
import { withDefaults } from '../domain/preferences';
import {
  renderEmailChangedEmail,
  renderPasswordChangedEmail,
  renderPasswordResetEmail,
  renderSignInMethodLinkedEmail,
} from '../domain/security-emails';
import { renderVerificationEmail } from '../domain/verification-email';
import type { PreferencesRecord } from '../model/preferences';
import type { Mailer } from '../providers/mailer';

export interface SecurityEmailDeps {
  mailer: Mailer;
  preferences: Model<PreferencesRecord>;
  appUrl: string;
  productName: string;
  /** Opens the links' sealed tokens. */
  mailTokens: MailTokenSealer;
}

/**
 * The password reset and new-address e-mails (always: the person asked for them) and the security notices
 * (password changed, e-mail changed, a sign-in method linked),
 * which follow the user's `securityNotifications` preference (on unless they turned it off). Its own
 * consumer group, so these e-mails never wait behind another group's retries.
 */
export function securityEmailConsumers(deps: SecurityEmailDeps): ConsumerSpec[] {
  const wants = async (kind: EmailKind, userId: string) =>
    mayReceive(kind, withDefaults(await deps.preferences.findById(userId).lean()));
  const common = { productName: deps.productName, appUrl: deps.appUrl };

  return [
    {
      groupId: 'notification-security',
      topics: [topicOf('user')],
      handlers: {
        'user.password_reset_requested': async (event, { eventId, occurredAt, log }) => {
          const token = linkTokenOf(event.reset, deps.mailTokens, log);
          if (!token) return;
          const email = renderPasswordResetEmail({ ...common, firstName: event.firstName, token });
          await deps.mailer.deliverOnce({
            eventId,
            occurredAt,
            kind: 'password-reset',
            userId: event.userId,
            to: event.email,
            email,
          });
        },
        // The link that confirms a new address goes to that address (always: the person asked for it).
        'user.email_change_requested': async (event, { eventId, occurredAt, log }) => {
          const token = linkTokenOf(event.verification, deps.mailTokens, log);
          if (!token) return;
          const email = renderVerificationEmail({
            ...common,
            firstName: event.firstName,
            token,
            kind: 'verify-new-email',
          });
          await deps.mailer.deliverOnce({
            eventId,
            occurredAt,
            kind: 'verify-new-email',
            userId: event.userId,
            to: event.newEmail,
            email,
          });
        },
        'user.email_changed': async (event, { eventId, occurredAt }) => {
          if (!(await wants('email-changed', event.userId))) return;
          const email = renderEmailChangedEmail({ ...common, firstName: event.firstName, newEmail: event.newEmail });
          await deps.mailer.deliverOnce({
            eventId,
            occurredAt,
            kind: 'email-changed',
            userId: event.userId,
            to: event.oldEmail,
            email,
          });
        },
        'user.password_changed': async (event, { eventId, occurredAt, log }) => {
          if (!(await wants('password-changed', event.userId))) {
            log.info({ userId: event.userId }, 'security e-mails turned off: no password-changed notice');
            return;
          }
          const email = renderPasswordChangedEmail({ ...common, firstName: event.firstName });
          await deps.mailer.deliverOnce({
            eventId,
            occurredAt,
            kind: 'password-changed',
            userId: event.userId,
            to: event.email,
            email,
          });
        },
        'user.sign_in_method_linked': async (event, { eventId, occurredAt, log }) => {
          if (!(await wants('sign-in-method-linked', event.userId))) {
            log.info({ userId: event.userId }, 'security e-mails turned off: no sign-in-method notice');
            return;
          }
          const email = renderSignInMethodLinkedEmail({
            ...common,
            firstName: event.firstName,
            providerName: event.providerName || (event.provider === 'google' ? 'Google' : 'Single Sign-On'),
          });
          await deps.mailer.deliverOnce({
            eventId,
            occurredAt,
            kind: 'sign-in-method-linked',
            userId: event.userId,
            to: event.email,
            email,
          });
        },
      },
    },
  ];
}
