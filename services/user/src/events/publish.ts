import { recordEvent, type MailTokenSealer } from '@haven/platform';
import type { FederatedProvider, UserDocument } from '../model/user';
import type { VerificationToken } from '../domain/verification';
import { timestampFromDate, type NewEvent } from '@haven/proto';

/** A link as the mailer receives it: the token sealed for the mailer, never in clear, and its expiry. */
function linkForMailer(link: VerificationToken, mailTokens: MailTokenSealer) {
  return { sealedToken: mailTokens.seal(link.token), expiresAt: timestampFromDate(link.expiresAt) };
}

/**
 * user.registered, with the verification link's sealed token for the mailer; none for an address the sign-in
 * provider vouched for (the account starts verified).
 */
export function recordUserRegistered(
  user: UserDocument,
  verification: VerificationToken | null,
  mailTokens: MailTokenSealer,
  correlationId: string,
): void {
  recordEvent(user, {
    type: 'user.registered',
    producer: 'user',
    subjectId: user._id,
    correlationId,
    payload: {
      userId: user._id,
      email: user.email,
      firstName: user.firstName ?? '',
      lastName: user.lastName ?? '',
      authProvider: user.authProvider,
      timeZone: user.timeZone,
      ...(verification && { verification: linkForMailer(verification, mailTokens) }),
    },
  });
}

/** user.email_verification_requested: a resend, with the new link's sealed token for the mailer. */
export function recordEmailVerificationRequested(
  user: UserDocument,
  verification: VerificationToken,
  mailTokens: MailTokenSealer,
  correlationId: string,
): void {
  recordEvent(user, {
    type: 'user.email_verification_requested',
    producer: 'user',
    subjectId: user._id,
    correlationId,
    payload: {
      userId: user._id,
      email: user.email,
      firstName: user.firstName ?? '',
      verification: linkForMailer(verification, mailTokens),
    },
  });
}

/** user.email_verified, appended together with the change that verifies the address (appendEvents). */
export function emailVerifiedEvent(
  user: { _id: string; email: string },
  correlationId: string,
): NewEvent<'user.email_verified'> {
  return {
    type: 'user.email_verified',
    producer: 'user',
    subjectId: user._id,
    correlationId,
    payload: { userId: user._id, email: user.email },
  };
}

/** user.profile_updated, when the time zone changes (the check-in's "today" and weekly e-mails follow it). */
export function recordProfileUpdated(user: UserDocument, correlationId: string): void {
  recordEvent(user, {
    type: 'user.profile_updated',
    producer: 'user',
    subjectId: user._id,
    correlationId,
    payload: { userId: user._id, timeZone: user.timeZone },
  });
}

/** user.password_reset_requested, with the reset link's sealed token for the mailer. */
export function recordPasswordResetRequested(
  user: UserDocument,
  reset: VerificationToken,
  mailTokens: MailTokenSealer,
  correlationId: string,
): void {
  recordEvent(user, {
    type: 'user.password_reset_requested',
    producer: 'user',
    subjectId: user._id,
    correlationId,
    payload: {
      userId: user._id,
      email: user.email,
      firstName: user.firstName ?? '',
      reset: linkForMailer(reset, mailTokens),
    },
  });
}

/** user.password_changed (a security e-mail follows when the user wants them). */
export function passwordChangedEvent(
  user: { _id: string; email: string; firstName: string | null },
  correlationId: string,
): NewEvent<'user.password_changed'> {
  return {
    type: 'user.password_changed',
    producer: 'user',
    subjectId: user._id,
    correlationId,
    payload: { userId: user._id, email: user.email, firstName: user.firstName ?? '' },
  };
}

/** user.email_change_requested, with the link's sealed token for the mailer (sent to the new address). */
export function recordEmailChangeRequested(
  user: UserDocument,
  newEmail: string,
  verification: VerificationToken,
  mailTokens: MailTokenSealer,
  correlationId: string,
): void {
  recordEvent(user, {
    type: 'user.email_change_requested',
    producer: 'user',
    subjectId: user._id,
    correlationId,
    payload: {
      userId: user._id,
      newEmail,
      firstName: user.firstName ?? '',
      verification: linkForMailer(verification, mailTokens),
    },
  });
}

/** user.email_changed, appended with the change (the old address gets a security notice). */
export function emailChangedEvent(
  user: { _id: string; email: string; firstName: string | null },
  newEmail: string,
  correlationId: string,
): NewEvent<'user.email_changed'> {
  return {
    type: 'user.email_changed',
    producer: 'user',
    subjectId: user._id,
    correlationId,
    payload: { userId: user._id, oldEmail: user.email, newEmail, firstName: user.firstName ?? '' },
  };
}

/** user.sign_in_method_linked, appended with the link (a security notice follows when the user wants them). */
export function signInMethodLinkedEvent(
  user: { _id: string; email: string; firstName: string | null },
  provider: FederatedProvider,
  providerName: string,
  correlationId: string,
): NewEvent<'user.sign_in_method_linked'> {
  return {
    type: 'user.sign_in_method_linked',
    producer: 'user',
    subjectId: user._id,
    correlationId,
    payload: { userId: user._id, provider, providerName, email: user.email, firstName: user.firstName ?? '' },
  };
}
