/**
 * CSV for the analytics exports (RFC 4180: comma, CRLF, quotes doubled), with spreadsheet formula
 * injection neutralised: a text cell starting with = + - @ tab or carriage return, or with the
 * full-width ＝ ＋ － ＠ (U+FF1D, U+FF0B, U+FF0D, U+FF20, which spreadsheets in Japanese and Chinese
 * locales read as their ASCII twins, issue 25), gets a leading apostrophe, so Excel, LibreOffice and
 * Google Sheets show it as text instead of running it (OWASP "CSV Injection"). Numbers are written as
 * numbers. Pure.
 */

const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvRow = (cells: Array<string | number | boolean | null | undefined>) => `${cells.map(csvCell).join(',')}\r\n`;
