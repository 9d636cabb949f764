import { recordEvent } from '@haven/platform';
import type { UserDocument } from '../model/user';
import type { VerificationToken } from '../domain/verification';
import { timestampFromDate } from '@haven/proto';

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
