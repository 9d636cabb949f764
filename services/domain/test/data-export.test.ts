/** The data export's file: the services' parts joined as they wrote them, knowing none of their fields. */
import { joinDataExport } from '../src/data-export';

const exportedAt = new Date('2026-01-02T03:04:05.000Z');
const part = (sections: unknown) => ({ sections: JSON.stringify(sections) });

it('is the format and the time, then every part’s sections as written, in the parts’ order', () => {
  const file = joinDataExport(
    [
      part({ account: { id: 'u1', sessions: [] }, safetyPlan: null }),
      part({ checkIns: [{ notes: 'n' }], favorites: ['q1'] }),
      part({}),
      part({ consents: { cookies: null } }),
    ],
    exportedAt,
  );
  expect(file).toEqual({
    format: 'haven-data-export/2',
    exportedAt: '2026-01-02T03:04:05.000Z',
    account: { id: 'u1', sessions: [] },
    safetyPlan: null,
    checkIns: [{ notes: 'n' }],
    favorites: ['q1'],
    consents: { cookies: null },
  });
  expect(Object.keys(file)).toEqual([
    'format',
    'exportedAt',
    'account',
    'safetyPlan',
    'checkIns',
    'favorites',
    'consents',
  ]);
});

it('throws when two parts name the same section, or a part names the file’s own', () => {
  expect(() => joinDataExport([part({ billing: {} }), part({ billing: { provider: null } })], exportedAt)).toThrow(
    'Data export section "billing" is named twice',
  );
  expect(() => joinDataExport([part({ format: 'mine' })], exportedAt)).toThrow(
    'Data export section "format" is named twice',
  );
});

it('throws when a part is not a JSON object', () => {
  for (const sections of ['[]', 'null', '"text"', '42', 'not json']) {
    expect(() => joinDataExport([part({ account: {} }), { sections }], exportedAt)).toThrow(
      'Data export part 1 is not a JSON object',
    );
  }
});
