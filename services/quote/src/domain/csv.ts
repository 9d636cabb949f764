/** CSV for the data export: RFC 4180 quoting, and no cell a spreadsheet would run as a formula. */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  // A leading =, +, - or @ makes a spreadsheet evaluate the cell; a quote mark keeps it text.
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvRow = (cells: Array<string | number | boolean | null | undefined>): string =>
  `${cells.map(csvCell).join(',')}\r\n`;

/** The download's name: a product prefix and the day (yyyy-mm-dd). */
export const exportFileName = (day: string): string => `haven-data-${day}.csv`;
