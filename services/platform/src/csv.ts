/**
 * CSV files people download (their data export, the admin's subscriber list): RFC 4180 quoting, and no cell a
 * spreadsheet would run as a formula.
 */
export type CsvValue = string | number | boolean | null | undefined;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  // A leading =, +, - or @ makes a spreadsheet evaluate the cell; a quote mark keeps it text.
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line of the file, with its line break. */
export const csvRow = (cells: readonly CsvValue[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/** A whole file: the header, then each row. */
export const toCsv = (header: readonly string[], rows: ReadonlyArray<readonly CsvValue[]>): string =>
  [header, ...rows].map(csvRow).join('');
