/**
 * Every module specifier a source file names: static and type imports, side-effect imports, re-exports, `import()`,
 * `require()`, `jest.mock()` and `jest.requireActual()`. The checks on what a room may import read files with it, so
 * none of them misses an import another would see.
 */
export function moduleSpecifiers(text: string): string[] {
  return [
    ...text.matchAll(/\b(?:import|export)\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g),
    ...text.matchAll(/\bimport\s*['"]([^'"]+)['"]/g),
    ...text.matchAll(/\b(?:import|require|jest\.mock|jest\.requireActual)\s*\(\s*['"]([^'"]+)['"]/g),
  ].flatMap((match) => (match[1] ? [match[1]] : []));
}
