/** Password reset links: the verification link's mechanism (hashed, single-use), with a shorter life. */
import { hashVerificationToken, newVerificationToken, type VerificationToken } from './verification';

/** A reset link is a key to the account: it stays valid for one hour. */
export const passwordResetTtlMs = 60 * 60 * 1000;

export function newPasswordResetToken(now: Date): VerificationToken {
  const { token, tokenHash } = newVerificationToken(now);
  return { token, tokenHash, expiresAt: new Date(now.getTime() + passwordResetTtlMs) };
}

export const hashPasswordResetToken = hashVerificationToken;

export const passwordMessages = {
  // The same whether or not the address has an account.
  resetRequested:
    'If an account uses that address, a link to reset your password is on its way. It works once, for one hour.',
  resetInvalid: 'This reset link is invalid or has expired. Please ask for a new one.',
  resetDone: 'Your password has been reset. You can sign in with your new password now.',
  changed: 'Your password has been changed. Any other devices signed in to your account have been signed out.',
  currentWrong: 'Your current password is not right. Please try again.',
  noPassword: 'Your account signs in with another provider and has no password yet. Use "Forgot password" to set one.',
} as const;
