import { backupName, backupScope, expiredBackups, inScope, takenAtOf } from '../src/backup';

describe('what a backup holds', () => {
  const databases = ['haven_user', 'haven_quote'];

  it('holds the data without the data keys, and the keys backup holds the keys alone', () => {
    const data = backupScope('data', databases);
    const keys = backupScope('keys', databases);
    expect(inScope(data, 'haven_user', 'users')).toBe(true);
    expect(inScope(data, 'haven_quote', 'check_ins')).toBe(true);
    expect(inScope(data, 'haven_user', 'person_keys')).toBe(false);
    expect(inScope(keys, 'haven_user', 'person_keys')).toBe(true);
    expect(inScope(keys, 'haven_user', 'users')).toBe(false);
    expect(inScope(keys, 'haven_quote', 'person_keys')).toBe(false);
  });

  it("names the keys in the user service's database, whatever it is called", () => {
    expect(inScope(backupScope('keys', ['t1_user'], 't1_user'), 't1_user', 'person_keys')).toBe(true);
    expect(inScope(backupScope('data', ['t1_user'], 't1_user'), 't1_user', 'person_keys')).toBe(false);
  });

  it('never holds system collections, nor databases it was not given', () => {
    expect(inScope(backupScope('data', databases), 'haven_user', 'system.views')).toBe(false);
    expect(inScope(backupScope('data', databases), 'admin', 'users')).toBe(false);
  });
});

describe("a backup's name and age", () => {
  it('names a backup by the second it was taken, in UTC, and reads that time back', () => {
    const takenAt = new Date('2026-11-30T02:00:07.123Z');
    expect(backupName(takenAt)).toBe('2026-11-30T02-00-07Z');
    expect(takenAtOf(backupName(takenAt))).toEqual(new Date('2026-11-30T02:00:07Z'));
    expect(takenAtOf('notes.txt')).toBeNull();
    expect(takenAtOf('2026-13-40T99-00-00Z')).toBeNull();
  });

  it('lists the backups older than the days kept, and never anything else in the folder', () => {
    const now = new Date('2026-11-30T02:00:00Z');
    const names = [
      '2026-10-25T02-00-00Z',
      '2026-10-26T01-59-59Z',
      '2026-10-26T02-00-00Z',
      '2026-11-29T02-00-00Z',
      'lost+found',
    ];
    expect(expiredBackups(names, now, 35)).toEqual(['2026-10-25T02-00-00Z', '2026-10-26T01-59-59Z']);
    expect(expiredBackups(names, now, 1)).toEqual(names.slice(0, 3));
  });
});
