import {
  adminUserFilter,
  escapeRegExp,
  isWholeList,
  maxPageSize,
  parseAdminUserQuery,
  totalGivenByPage,
} from '../src/domain/admin-users';

describe('parseAdminUserQuery', () => {
  it('takes the defaults when nothing is given', () => {
    expect(parseAdminUserQuery({})).toEqual({ ok: true, value: { words: [], status: 'all', page: 1, pageSize: 25 } });
  });

  it('splits the search into lower-cased words', () => {
    const parsed = parseAdminUserQuery({ q: '  Ada   LOVELACE ', status: 'trial', page: 3, pageSize: 100 });
    expect(parsed).toEqual({
      ok: true,
      value: { words: ['ada', 'lovelace'], status: 'trial', page: 3, pageSize: 100 },
    });
  });

  it.each([
    [{ status: 'paying' }, 'status'],
    [{ page: 0 }, 'page'],
    [{ page: 1.5 }, 'page'],
    [{ pageSize: 0 }, 'pageSize'],
    [{ pageSize: maxPageSize + 1 }, 'pageSize'],
    [{ q: 'x'.repeat(101) }, 'q'],
    [{ q: 'a b c d e f' }, 'q'],
  ])('names the bad parameter of %j', (input, field) => {
    const parsed = parseAdminUserQuery(input);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems.map((problem) => problem.field)).toEqual([field]);
  });

  it('lists every bad parameter at once', () => {
    const parsed = parseAdminUserQuery({ status: 'x', page: -1, pageSize: 1000 });
    expect(parsed.ok ? [] : parsed.problems.map((problem) => problem.field)).toEqual(['status', 'page', 'pageSize']);
  });
});

describe('adminUserFilter', () => {
  it('filters nothing for all users without a search', () => {
    expect(adminUserFilter({ words: [], status: 'all' })).toEqual({});
    expect(isWholeList({ words: [], status: 'all' })).toBe(true);
    expect(isWholeList({ words: ['a'], status: 'all' })).toBe(false);
    expect(isWholeList({ words: [], status: 'verified' })).toBe(false);
  });

  it.each([
    ['verified', { emailVerifiedAt: { $ne: null } }],
    ['unverified', { emailVerifiedAt: null }],
    ['active', { subscriptionStatus: 'active' }],
    ['trial', { subscriptionStatus: 'trialing' }],
    ['expired', { subscriptionStatus: 'trial_expired' }],
  ] as const)('turns %s into its condition', (status, condition) => {
    expect(adminUserFilter({ words: [], status })).toEqual(condition);
  });

  it('wants every word somewhere in the e-mail or a name, as literal text', () => {
    const filter = adminUserFilter({ words: ['a.b', 'lovelace'], status: 'verified' }) as { $and: unknown[] };
    expect(filter.$and).toHaveLength(3);
    expect(filter.$and[1]).toEqual({
      $or: [
        { email: { $regex: 'a\\.b' } },
        { firstName: { $regex: 'a\\.b', $options: 'i' } },
        { lastName: { $regex: 'a\\.b', $options: 'i' } },
      ],
    });
  });

  it('escapes every pattern character', () => {
    const typed = '(a+)+$ [x] {2} ^.*?|\\';
    expect(new RegExp(escapeRegExp(typed)).test(`before ${typed} after`)).toBe(true);
    expect(new RegExp(escapeRegExp('a.c')).test('abc')).toBe(false);
  });
});

describe('totalGivenByPage', () => {
  it('reads the total off a last page that is not full', () => {
    expect(totalGivenByPage(1, 25, 1)).toBe(1);
    expect(totalGivenByPage(1, 25, 0)).toBe(0);
    expect(totalGivenByPage(3, 10, 4)).toBe(24);
  });

  it('cannot tell from a full page, nor from an empty page past the end', () => {
    expect(totalGivenByPage(1, 25, 25)).toBeNull();
    expect(totalGivenByPage(4, 10, 10)).toBeNull();
    expect(totalGivenByPage(5, 10, 0)).toBeNull();
  });
});
