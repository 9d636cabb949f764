import { CRISIS_COUNTRIES, CRISIS_DIRECTORY } from '../src/crisis-countries';

/** A real calendar day written yyyy-mm-dd, no later than today. */
function isPastOrTodayDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== value) return false;
  return day.getTime() <= Date.now();
}

const byCode = (code: string) => {
  const country = CRISIS_COUNTRIES.find((entry) => entry.code === code);
  if (!country) throw new Error(`no entry for ${code}`);
  return country;
};

const allLines = CRISIS_COUNTRIES.flatMap((country) => country.lines.map((line) => ({ code: country.code, line })));

describe('crisis countries: the list itself', () => {
  it('covers at least 60 countries', () => {
    expect(CRISIS_COUNTRIES.length).toBeGreaterThanOrEqual(60);
  });

  it('uses each ISO code once, as two upper-case letters', () => {
    const codes = CRISIS_COUNTRIES.map((country) => country.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[A-Z]{2}$/);
  });

  it('is sorted by code, so a reviewer can find a country and spot duplicates', () => {
    const codes = CRISIS_COUNTRIES.map((country) => country.code);
    expect(codes).toEqual([...codes].sort());
  });

  it('gives every country a non-empty English name', () => {
    for (const country of CRISIS_COUNTRIES) expect(country.name.trim()).not.toBe('');
  });

  it('covers every EU member state', () => {
    const eu = 'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE'.split(' ');
    const codes = new Set(CRISIS_COUNTRIES.map((country) => country.code));
    expect(eu.filter((code) => !codes.has(code))).toEqual([]);
  });

  it('keeps the international directory as an https link for everyone else', () => {
    expect(CRISIS_DIRECTORY.href).toMatch(/^https:\/\//);
    expect(CRISIS_DIRECTORY.name.trim()).not.toBe('');
  });
});

describe('crisis countries: emergency numbers', () => {
  it.each(CRISIS_COUNTRIES.map((country) => [country.code, country]))(
    '%s has a diallable emergency number (digits, spaces, "or")',
    (_code, country) => {
      expect(country.emergency.number).toMatch(/^\d+( \d+)*( or \d+( \d+)*)*$/);
    },
  );

  it.each(CRISIS_COUNTRIES.map((country) => [country.code, country]))(
    '%s says where its emergency number was confirmed (https) and on which past day',
    (_code, country) => {
      expect(country.emergency.source.url).toMatch(/^https:\/\/\S+$/);
      expect(isPastOrTodayDate(country.emergency.source.checked)).toBe(true);
    },
  );
});

describe('crisis countries: crisis lines (each one becomes a call link)', () => {
  it.each(allLines.map(({ code, line }) => [code, line.name, line]))(
    '%s %s links to tel: (digits only), sms: or https:',
    (_code, _name, line) => {
      expect(line.href).toMatch(/^(tel:\d+|sms:\d+(\?body=[^\s]+)?|https:\/\/\S+)$/);
    },
  );

  it.each(allLines.map(({ code, line }) => [code, line.name, line]))(
    '%s %s says what to do, and where and when it was confirmed',
    (_code, _name, line) => {
      expect(line.name.trim()).not.toBe('');
      expect(line.action.trim()).not.toBe('');
      expect(line.source.url).toMatch(/^https:\/\/\S+$/);
      expect(isPastOrTodayDate(line.source.checked)).toBe(true);
    },
  );

  it('shows in each tel: action the same digits it dials', () => {
    for (const { code, line } of allLines) {
      if (!line.href.startsWith('tel:')) continue;
      const dialled = line.href.slice('tel:'.length);
      const shown = line.action.replace(/\([^)]*\)/g, '').replace(/\D/g, '');
      expect(`${code} ${shown}`).toBe(`${code} ${dialled}`);
    }
  });
});

describe('crisis countries: the numbers a person is most likely to need', () => {
  it('United Kingdom: 999, and Samaritans on 116 123', () => {
    const gb = byCode('GB');
    expect(gb.emergency.number).toBe('999');
    expect(gb.lines.map((line) => line.href)).toContain('tel:116123');
  });

  it('United States: 911, and the 988 Lifeline', () => {
    const us = byCode('US');
    expect(us.emergency.number).toBe('911');
    expect(us.lines.map((line) => line.href)).toContain('tel:988');
  });

  it('Canada: 911, and 9-8-8', () => {
    const ca = byCode('CA');
    expect(ca.emergency.number).toBe('911');
    expect(ca.lines.map((line) => line.href)).toContain('tel:988');
  });

  it('Australia: 000, and Lifeline on 13 11 14', () => {
    const au = byCode('AU');
    expect(au.emergency.number).toBe('000');
    expect(au.lines.map((line) => line.href)).toContain('tel:131114');
  });

  it('New Zealand: 111, and 1737', () => {
    const nz = byCode('NZ');
    expect(nz.emergency.number).toBe('111');
    expect(nz.lines.map((line) => line.href)).toContain('tel:1737');
  });

  it('Ireland: 112 or 999, and Samaritans on 116 123', () => {
    const ie = byCode('IE');
    expect(ie.emergency.number.split(' or ')).toEqual(expect.arrayContaining(['112', '999']));
    expect(ie.lines.map((line) => line.href)).toContain('tel:116123');
  });

  it('France: 112, and 3114', () => {
    const fr = byCode('FR');
    expect(fr.emergency.number).toBe('112');
    expect(fr.lines.map((line) => line.href)).toContain('tel:3114');
  });

  it('Germany: 112, and TelefonSeelsorge on 0800 111 0 111', () => {
    const de = byCode('DE');
    expect(de.emergency.number).toBe('112');
    expect(de.lines.map((line) => line.href)).toContain('tel:08001110111');
  });

  it('every EU member state lists 112', () => {
    const eu = 'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE'.split(' ');
    for (const code of eu)
      expect(`${code} ${byCode(code).emergency.number.split(' or ').includes('112')}`).toBe(`${code} true`);
  });
});
