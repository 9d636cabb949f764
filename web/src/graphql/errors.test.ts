import {
  accessDenialOf,
  accessDeniedNotice,
  accessDeniedReason,
  errorCode,
  fieldErrors,
  graphQLErrorsOf,
  httpStatus,
  serverAnswered,
  serverMessage,
} from './errors';

// Shapes as Apollo Client 4 produces them: CombinedGraphQLErrors has `errors`,
// ServerError has `statusCode` and `bodyText`, a failed fetch is a plain TypeError.
const graphQL = (...errors: Array<{ message: string; extensions?: Record<string, unknown> }>) => ({
  name: 'CombinedGraphQLErrors',
  message: errors.map((e) => e.message).join('\n'),
  errors,
});
const http = (statusCode: number, body: unknown) => ({
  name: 'ServerError',
  message: `Response not successful: Received status code ${statusCode}`,
  statusCode,
  bodyText: typeof body === 'string' ? body : JSON.stringify(body),
});
const offline = new TypeError('Failed to fetch');

describe('serverMessage', () => {
  it('takes the first GraphQL error message', () => {
    expect(
      serverMessage(graphQL({ message: 'Invalid email or password', extensions: { code: 'UNAUTHENTICATED' } })),
    ).toBe('Invalid email or password');
  });

  it('reads GraphQL errors or a REST message from an HTTP error body', () => {
    expect(serverMessage(http(429, { errors: [{ message: 'Too many attempts' }] }))).toBe('Too many attempts');
    expect(serverMessage(http(503, { message: 'Service unavailable' }))).toBe('Service unavailable');
  });

  it('has nothing to say for network failures or unreadable bodies', () => {
    expect(serverMessage(offline)).toBeUndefined();
    expect(serverMessage(http(502, '<html>Bad gateway</html>'))).toBeUndefined();
    expect(serverMessage(undefined)).toBeUndefined();
    expect(serverMessage(graphQL({ message: '  ' }))).toBeUndefined();
  });
});

describe('errorCode and fieldErrors', () => {
  it('reads extensions.code', () => {
    expect(
      errorCode(graphQL({ message: 'An account with this email already exists', extensions: { code: 'CONFLICT' } })),
    ).toBe('CONFLICT');
    expect(errorCode(offline)).toBeUndefined();
  });

  it('maps BAD_USER_INPUT errors to their field', () => {
    const error = graphQL(
      { message: 'Password must be at least 8 characters', extensions: { code: 'BAD_USER_INPUT', field: 'password' } },
      { message: 'Invalid email', extensions: { code: 'BAD_USER_INPUT', field: 'email' } },
      { message: 'Second password error', extensions: { code: 'BAD_USER_INPUT', field: 'password' } },
      { message: 'Not a field', extensions: { code: 'CONFLICT', field: 'email' } },
    );
    expect(fieldErrors(error)).toEqual({ password: 'Password must be at least 8 characters', email: 'Invalid email' });
  });

  it('ignores malformed error lists', () => {
    expect(graphQLErrorsOf({ errors: [null, 3, { nope: true }] })).toEqual([]);
    expect(graphQLErrorsOf('boom')).toEqual([]);
  });
});

describe('accessDeniedReason', () => {
  const forbidden = (extensions: Record<string, unknown>) => graphQL({ message: 'Forbidden', extensions });

  it('recognises FORBIDDEN + requiresAuth + reason', () => {
    expect(accessDeniedReason(forbidden({ code: 'FORBIDDEN', requiresAuth: true, reason: 'trial_expired' }))).toBe(
      'trial_expired',
    );
    expect(accessDeniedReason(forbidden({ code: 'FORBIDDEN', requiresAuth: true, reason: 'something_new' }))).toBe(
      'something_new',
    );
  });

  it('needs all three parts', () => {
    expect(accessDeniedReason(forbidden({ code: 'FORBIDDEN', requiresAuth: true }))).toBeNull();
    expect(accessDeniedReason(forbidden({ code: 'FORBIDDEN', reason: 'trial_expired' }))).toBeNull();
    expect(
      accessDeniedReason(forbidden({ code: 'FORBIDDEN', requiresAuth: 'true', reason: 'trial_expired' })),
    ).toBeNull();
    expect(accessDeniedReason(forbidden({ code: 'UNAUTHENTICATED', requiresAuth: true, reason: 'x' }))).toBeNull();
    expect(accessDeniedReason(forbidden({ code: 'FORBIDDEN', requiresAuth: true, reason: '' }))).toBeNull();
    expect(accessDeniedReason(offline)).toBeNull();
  });

  it('also reads a 403 reply body', () => {
    expect(
      accessDeniedReason(
        http(403, {
          errors: [{ message: 'x', extensions: { code: 'FORBIDDEN', requiresAuth: true, reason: 'payment_failed' } }],
        }),
      ),
    ).toBe('payment_failed');
    expect(accessDeniedReason(http(403, { message: 'x', requiresAuth: true, reason: 'no_subscription' }))).toBe(
      'no_subscription',
    );
    expect(accessDeniedReason(http(401, { requiresAuth: true, reason: 'no_subscription' }))).toBeNull();
  });
});

describe('accessDenialOf', () => {
  it('carries the reason and the words the server wrote', () => {
    const trialEnded = graphQL({
      message: 'Your 3-day free trial has ended. Please subscribe to continue.',
      extensions: { code: 'FORBIDDEN', requiresAuth: true, reason: 'trial_expired' },
    });
    expect(accessDenialOf(trialEnded)).toEqual({
      reason: 'trial_expired',
      message: 'Your 3-day free trial has ended. Please subscribe to continue.',
    });
    expect(
      accessDenialOf(http(403, { message: 'Please subscribe.', requiresAuth: true, reason: 'no_subscription' })),
    ).toEqual({ reason: 'no_subscription', message: 'Please subscribe.' });
    expect(accessDenialOf(offline)).toBeNull();
  });
});

describe('accessDeniedNotice', () => {
  it('puts the title of each reason over the server’s words', () => {
    const words = 'Your payment could not be processed. Please update your payment method.';
    expect(accessDeniedNotice({ reason: 'trial_expired', message: 'x' }).title).toBe('Trial Expired');
    expect(accessDeniedNotice({ reason: 'payment_failed', message: words })).toEqual({
      title: 'Payment Failed',
      description: words,
    });
    expect(accessDeniedNotice({ reason: 'no_subscription', message: 'x' }).title).toBe('Subscription Required');
  });

  it('still says what happened when the server sent no words, and ends the session on a reason it does not know', () => {
    expect(accessDeniedNotice({ reason: 'trial_expired', message: null }).description).toBe(
      'Your access to this feature has ended.',
    );
    expect(accessDeniedNotice({ reason: 'anything_else', message: 'x' })).toEqual({
      title: 'Access Expired',
      description: 'Your session has ended',
    });
  });
});

describe('serverAnswered and httpStatus', () => {
  it('tells an answer (GraphQL errors or an HTTP status) from none at all', () => {
    expect(serverAnswered(graphQL({ message: 'Slow down', extensions: { code: 'TOO_MANY_REQUESTS' } }))).toBe(true);
    expect(serverAnswered(http(502, 'Bad gateway'))).toBe(true);
    expect(serverAnswered(offline)).toBe(false);
    expect(serverAnswered(undefined)).toBe(false);
    expect(httpStatus(http(429, {}))).toBe(429);
    expect(httpStatus(offline)).toBeUndefined();
  });
});
