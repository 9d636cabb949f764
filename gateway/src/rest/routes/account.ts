/** Sign-up, sign-in and the account (the user service). */
import { pick, signedIn, userFields, type RestRoute, type Json } from './types';

export const logoutOperation = 'mutation Logout { logout }';

export const accountRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/api/auth/register',
    operation: `mutation Register($input: RegisterInput!) { register(input: $input) { user { ${userFields} } } }`,
    variables: (body) => ({ input: pick(body, ['email', 'password', 'firstName', 'lastName', 'timeZone']) }),
    reply: (data) => data.register as Json,
    status: 201,
  },
  {
    method: 'POST',
    path: '/api/auth/login',
    operation: `mutation Login($input: LoginInput!) { login(input: $input) { user { ${userFields} } } }`,
    variables: (body) => ({ input: pick(body, ['email', 'password']) }),
    reply: (data) => data.login as Json,
  },
  {
    method: 'GET',
    path: '/api/auth/verify-email',
    operation: 'mutation VerifyEmail($token: String) { verifyEmail(token: $token) { verified message } }',
    // A link without a token still reaches the service, which answers 400 naming `token`.
    variables: (_body, request) => ({ token: typeof request.query.token === 'string' ? request.query.token : '' }),
    reply: (data) => data.verifyEmail as Json,
  },
  {
    method: 'POST',
    path: '/api/auth/resend-verification',
    operation: 'mutation ResendVerification($email: String) { resendVerification(email: $email) { message } }',
    variables: (body) => pick(body, ['email']),
    reply: (data) => data.resendVerification as Json,
  },
  {
    method: 'POST',
    path: '/api/auth/forgot-password',
    operation: 'mutation RequestPasswordReset($email: String) { requestPasswordReset(email: $email) { message } }',
    variables: (body) => pick(body, ['email']),
    reply: (data) => data.requestPasswordReset as Json,
  },
  {
    method: 'POST',
    path: '/api/auth/reset-password',
    operation: 'mutation ResetPassword($input: ResetPasswordInput!) { resetPassword(input: $input) { message } }',
    variables: (body) => ({ input: pick(body, ['token', 'newPassword']) }),
    reply: (data) => data.resetPassword as Json,
  },
  {
    // After a provider sign-in whose address has an account here: that account's password links the two.
    method: 'POST',
    path: '/api/auth/link-account',
    operation: `mutation LinkSignInMethod($input: LinkSignInMethodInput!) { linkSignInMethod(input: $input) { user { ${userFields} } } }`,
    variables: (body) => ({ input: pick(body, ['token', 'password']) }),
    reply: (data) => data.linkSignInMethod as Json,
  },
  {
    method: 'GET',
    path: '/api/user',
    operation: `query CurrentUser { me { ${userFields} } }`,
    reply: signedIn,
  },
];
