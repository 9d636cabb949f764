import { csvCell, csvRow, toCsv } from '../src/csv';

describe('the CSV files people download', () => {
  it('quote cells and defuse spreadsheet formulas', () => {
    expect(
      toCsv(
        ['email', 'source'],
        [
          ['a@example.com', '=HYPERLINK("x")'],
          ['b,c@example.com', 'web'],
        ],
      ),
    ).toBe('email,source\r\na@example.com,"\'=HYPERLINK(""x"")"\r\n"b,c@example.com",web\r\n');
  });

  it('write numbers and flags as they are, nothing for a missing value, and defuse every formula opener', () => {
    expect(csvRow([3, -2, true, null, undefined, 'fine'])).toBe('3,-2,true,,,fine\r\n');
    expect(['=1', '+1', '-1', '@x', '\tx'].map(csvCell)).toEqual(["'=1", "'+1", "'-1", "'@x", "'\tx"]);
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });
});
