import { restartDelayMs, terminalLines } from '../dev/apps';

describe('make dev output', () => {
  it('shows pino JSON as a readable line under the app’s name, and other output as it is', () => {
    const lines = terminalLines('gateway');
    const json = JSON.stringify({
      level: 30,
      time: 1_700_000_000_000,
      service: 'gateway',
      msg: 'gateway listening',
      port: 4000,
    });
    // A line may arrive in two chunks; nothing is printed until it is whole.
    expect(lines(Buffer.from(json.slice(0, 20)))).toBe('');
    const shown = lines(Buffer.from(`${json.slice(20)}\nplain text\n`));
    expect(shown).toMatch(/^gateway {6}\| .*INFO.*gateway listening/m);
    expect(shown).toMatch(/port: 4000/);
    expect(shown).not.toMatch(/"level":30/);
    expect(shown).toMatch(/^gateway {6}\| plain text$/m);
  });

  it('backs off restarts of a crashing app: 1 s, 2 s, 4 s … at most 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(restartDelayMs)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
  });
});
