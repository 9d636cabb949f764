import { recordEvent } from '@haven/platform';
import type { UserDocument } from '../model/user';
import type { VerificationToken } from '../domain/verification';
import { timestampFromDate, type NewEvent } from '@haven/proto';

/** user.registered, with the verification link's token for the mailer. */
export function recordUserRegistered(user: UserDocument, verification: VerificationToken, correlationId: string): void {
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
      verification: { token: verification.token, expiresAt: timestampFromDate(verification.expiresAt) },
    },
  });
}

/** user.email_verification_requested: a resend, with the new link's token for the mailer. */
export function recordEmailVerificationRequested(
  user: UserDocument,
  verification: VerificationToken,
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
      verification: { token: verification.token, expiresAt: timestampFromDate(verification.expiresAt) },
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
