// Regenerates the README's error table from domain/error-codes.ts:
//   npx tsx scripts/error-table.ts          (print)
//   npx tsx scripts/error-table.ts --write  (replace the table between the README markers)
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { errorCodes, type ErrorCodeDef } from '../domain/error-codes';

export const ERRORS_START = '<!-- errors:start -->';
export const ERRORS_END = '<!-- errors:end -->';

/** The table as markdown, by status, in the table file's order within a status. */
export function errorTable(): string {
  const entries: [string, ErrorCodeDef][] = Object.entries(errorCodes);
  const rows = entries
    .map(([code, d], i) => ({ code, d, i }))
    .sort((a, b) => a.d.status - b.d.status || a.i - b.i)
    .map(({ code, d }) => `| \`${code}\` | ${d.status} | ${d.meaning.replace(/\|/g, '\\|')} |`);
  return ['| Code | Status | Meaning |', '|---|---|---|', ...rows].join('\n');
}

/** The README's text between the markers, or undefined when a marker is missing. */
export function readmeErrorTable(readme: string): string | undefined {
  const a = readme.indexOf(ERRORS_START);
  const b = readme.indexOf(ERRORS_END);
  if (a < 0 || b < a) return undefined;
  return readme.slice(a + ERRORS_START.length, b).trim();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const table = errorTable();
  if (process.argv.includes('--write')) {
    const path = new URL('../README.md', import.meta.url);
    const readme = readFileSync(path, 'utf8');
    const a = readme.indexOf(ERRORS_START);
    const b = readme.indexOf(ERRORS_END);
    if (a < 0 || b < a) throw new Error('README lacks the errors markers');
    writeFileSync(path, `${readme.slice(0, a + ERRORS_START.length)}\n${table}\n${readme.slice(b)}`);
  } else {
    process.stdout.write(`${table}\n`);
  }
}
