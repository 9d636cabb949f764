import jwt from 'jsonwebtoken';
import { sessionCheck, SessionCheckFailed } from '../src/session-check';

/** The user service's answers, in order; each call is counted. */
function userServiceAnswering(...answers: Array<{ status?: number; body: unknown }>) {
  const calls: RequestInit[] = [];
  jest.spyOn(globalThis, 'fetch').mockImplementation(async (_url, init) => {
    calls.push(init ?? {});
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)]!;
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200 });
  });
  return calls;
}

const live = { body: { data: { me: { id: 'u1' } } } };
const revoked = { body: { data: { me: null } } };
const options = { userServiceUrl: 'http://user.invalid/graphql', secret: 's3cret', ttlMs: 60_000, timeoutMs: 1_000 };

afterEach(() => jest.restoreAllMocks());

describe('sessionCheck', () => {
  it('asks the user service with the token and the subgraph secret, and remembers the answer', async () => {
    const calls = userServiceAnswering(live, revoked);
    const check = sessionCheck(options);
    await expect(check.isLive('token-a', 'c1')).resolves.toBe(true);
    await expect(check.isLive('token-a', 'c2')).resolves.toBe(true);
    expect(calls).toHaveLength(1);
    const headers = calls[0]!.headers as Record<string, string>;
    expect(headers.authorization).toBe('Bearer token-a');
    expect(headers['x-haven-subgraph-secret']).toBe('s3cret');
  });

  it('shares one question between concurrent requests of a token', async () => {
    const calls = userServiceAnswering(live);
    const check = sessionCheck(options);
    await Promise.all([check.isLive('t', 'a'), check.isLive('t', 'b'), check.isLive('t', 'c')]);
    expect(calls).toHaveLength(1);
  });

  it('refuses a token at once after revoke, without asking', async () => {
    const calls = userServiceAnswering(live);
    const check = sessionCheck(options);
    await check.isLive('t', 'a');
    check.revoke('t');
    await expect(check.isLive('t', 'b')).resolves.toBe(false);
    expect(calls).toHaveLength(1);
  });

  it('refuses every token of a user whose sessions all ended (a closed account) at once, and only theirs', async () => {
    const calls = userServiceAnswering(live);
    const check = sessionCheck(options);
    // Tokens name their user in `sub` (already verified by the gateway before it asks).
    const token = (userId: string, sessionId: string) => jwt.sign({ sub: userId, jti: sessionId }, 'test');
    const phone = token('closed-user', 's1');
    const laptop = token('closed-user', 's2');
    const someoneElse = token('other-user', 's3');
    await check.isLive(phone, 'a');
    await check.isLive(someoneElse, 'b');
    check.revokeUser('closed-user');
    await expect(check.isLive(phone, 'c')).resolves.toBe(false);
    await expect(check.isLive(laptop, 'd')).resolves.toBe(false);
    await expect(check.isLive(someoneElse, 'e')).resolves.toBe(true);
    expect(calls).toHaveLength(2);
  });

  it('asks again about a user’s tokens when some of their sessions ended (a verification), and keeps the others’ answers', async () => {
    const calls = userServiceAnswering(live, live, revoked, live);
    const check = sessionCheck(options);
    const token = (userId: string, sessionId: string) => jwt.sign({ sub: userId, jti: sessionId }, 'test');
    const registrant = token('verified-user', 's1');
    const someoneElse = token('other-user', 's2');
    await check.isLive(registrant, 'a');
    await check.isLive(someoneElse, 'b');
    check.forgetUser('verified-user');
    // The ended session is refused now, and a fresh one of the same user is asked about, not refused.
    await expect(check.isLive(registrant, 'c')).resolves.toBe(false);
    await expect(check.isLive(token('verified-user', 's3'), 'd')).resolves.toBe(true);
    await expect(check.isLive(someoneElse, 'e')).resolves.toBe(true);
    expect(calls).toHaveLength(4);
  });

  it('asks again once the answer is older than the bound', async () => {
    const calls = userServiceAnswering(live, revoked);
    const check = sessionCheck({ ...options, ttlMs: 0 });
    await expect(check.isLive('t', 'a')).resolves.toBe(true);
    await expect(check.isLive('t', 'b')).resolves.toBe(false);
    expect(calls).toHaveLength(2);
  });

  it('throws with the user service’s own reason when it cannot answer', async () => {
    userServiceAnswering({
      status: 503,
      body: { errors: [{ message: 'Database down', extensions: { code: 'SERVICE_UNAVAILABLE' } }] },
    });
    const error = await sessionCheck(options)
      .isLive('t', 'a')
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(SessionCheckFailed);
    expect((error as SessionCheckFailed).reason).toBe('Database down');
  });

  it('keeps at most maxEntries answers, dropping the oldest', async () => {
    const calls = userServiceAnswering(live);
    const check = sessionCheck({ ...options, maxEntries: 2 });
    for (const token of ['a', 'b', 'c']) await check.isLive(token, 'x');
    await check.isLive('a', 'x');
    expect(calls).toHaveLength(4);
  });
});
