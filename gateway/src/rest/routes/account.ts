/** Sign-up, sign-in and the account (the user service). */
import { print } from 'graphql';
import {
  CurrentUserDocument,
  LinkSignInMethodDocument,
  LoginDocument,
  LogoutDocument,
  RegisterDocument,
  RequestPasswordResetDocument,
  ResendVerificationDocument,
  ResetPasswordDocument,
  VerifyEmailDocument,
} from './account.generated';
import { pick, restRoute, signedIn, type RestRoute } from './types';

export const logoutOperation = print(LogoutDocument);

export const accountRoutes: RestRoute[] = [
  restRoute({
    method: 'POST',
    path: '/api/auth/register',
    document: RegisterDocument,
    variables: (body) => ({ input: pick(body, ['email', 'password', 'firstName', 'lastName', 'timeZone']) }),
    reply: (data) => data.register,
    status: 201,
  }),
  restRoute({
    method: 'POST',
    path: '/api/auth/login',
    document: LoginDocument,
    variables: (body) => ({ input: pick(body, ['email', 'password']) }),
    reply: (data) => data.login,
  }),
  restRoute({
    method: 'GET',
    path: '/api/auth/verify-email',
    document: VerifyEmailDocument,
    // A link without a token still reaches the service, which answers 400 naming `token`.
    variables: (_body, request) => ({ token: typeof request.query.token === 'string' ? request.query.token : '' }),
    reply: (data) => data.verifyEmail,
  }),
  restRoute({
    method: 'POST',
    path: '/api/auth/resend-verification',
    document: ResendVerificationDocument,
    variables: (body) => pick(body, ['email']),
    reply: (data) => data.resendVerification,
  }),
  restRoute({
    method: 'POST',
    path: '/api/auth/forgot-password',
    document: RequestPasswordResetDocument,
    variables: (body) => pick(body, ['email']),
    reply: (data) => data.requestPasswordReset,
  }),
  restRoute({
    method: 'POST',
    path: '/api/auth/reset-password',
    document: ResetPasswordDocument,
    variables: (body) => ({ input: pick(body, ['token', 'newPassword']) }),
    reply: (data) => data.resetPassword,
  }),
  restRoute({
    // After a provider sign-in whose address has an account here: that account's password links the two.
    method: 'POST',
    path: '/api/auth/link-account',
    document: LinkSignInMethodDocument,
    variables: (body) => ({ input: pick(body, ['token', 'password']) }),
    reply: (data) => data.linkSignInMethod,
  }),
  restRoute({
    method: 'GET',
    path: '/api/user',
    document: CurrentUserDocument,
    reply: signedIn,
  }),
];
