/**
 * Crisis numbers live in one dataset: a number typed anywhere else in the product's code or templates can go
 * stale or reach the wrong reader (every e-mail once told UK readers to call 988).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CRISIS_COUNTRIES } from '../src/crisis-countries';

const root = join(__dirname, '../../..');
const productFolders = ['services', 'gateway/src', 'web/src', 'web/index.html', 'k8s'];
const skipped = /node_modules|\/test\/|\.test\.tsx?$|\.generated\.ts$|\/dist\/|crisis-countries\.ts$/;

function productFiles(path: string): string[] {
  if (skipped.test(path)) return [];
  if (!statSync(path).isDirectory()) return /\.(ts|tsx|html|graphql|ya?ml|md|json|css)$/.test(path) ? [path] : [];
  return readdirSync(path).flatMap((entry) => productFiles(join(path, entry)));
}

const digitsOf = (text: string) => text.replace(/\D/g, '');
/** Every number the dataset gives a person to call or text: as dialled, and as the page writes it ("116 123"). */
const lineNumbers = CRISIS_COUNTRIES.flatMap((country) =>
  country.lines
    .filter((line) => /^(tel|sms):/.test(line.href))
    .flatMap((line) => [digitsOf(line.href.split('?')[0]!), ...(/\d[\d ]*\d/.exec(line.action) ?? [])]),
);
const emergencyNumbers = CRISIS_COUNTRIES.flatMap((country) => country.emergency.number.split(' or ').map(digitsOf));

describe('crisis numbers in one place', () => {
  const files = productFolders.flatMap((folder) => productFiles(join(root, folder)));

  it('reads the product’s code and templates', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(lineNumbers).toContain('116123');
    expect(emergencyNumbers).toContain('911');
  });

  it('spells no crisis line or emergency number outside the dataset', () => {
    // A helpline's number stands out anywhere; a short emergency number only where someone is told to use it.
    const patterns = [
      ...[...new Set(lineNumbers)]
        .filter((number) => digitsOf(number).length >= 4)
        .map((number) => new RegExp(`(?<![\\d.])${number}(?![\\d.])`)),
      ...[...new Set([...lineNumbers, ...emergencyNumbers])]
        .filter((number) => number.length === 3)
        .map((digits) => new RegExp(`\\b(call|dial|text|phone|ring|tel:|sms:)\\W*(\\w+\\W+){0,3}?${digits}\\b`, 'i')),
    ];
    const found = files.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return patterns
        .filter((pattern) => pattern.test(text))
        .map((pattern) => `${relative(root, file)}: ${pattern.source}`);
    });
    expect(found).toEqual([]);
  });
});
