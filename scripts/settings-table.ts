// Regenerates the README's settings table from domain/settings.ts:
//   npx tsx scripts/settings-table.ts          (print)
//   npx tsx scripts/settings-table.ts --write  (replace the table between the README markers)
import { readFileSync, writeFileSync } from 'node:fs';
import { envName, settingDefs } from '../domain/settings';

const rows = Object.entries(settingDefs).map(([name, d]) => {
  const dflt = d.default === undefined || d.default === '' ? '(unset)' : `\`${d.default}\``;
  const secret = d.secret ? ' Secret: never logged or echoed.' : '';
  return `| \`${name}\` | \`${envName(name)}\` | ${dflt} | ${d.description.replace(/\|/g, '\\|')}${secret} |`;
});
const table = ['| Setting | Environment variable | Default | Meaning |', '|---|---|---|---|', ...rows].join('\n');

if (process.argv.includes('--write')) {
  const path = new URL('../README.md', import.meta.url);
  const readme = readFileSync(path, 'utf8');
  const start = '<!-- settings:start -->';
  const end = '<!-- settings:end -->';
  const a = readme.indexOf(start);
  const b = readme.indexOf(end);
  if (a < 0 || b < a) throw new Error('README lacks the settings markers');
  writeFileSync(path, `${readme.slice(0, a + start.length)}\n${table}\n${readme.slice(b)}`);
} else {
  process.stdout.write(`${table}\n`);
}
