// Drizzle's migrator applies the journal's migrations whose `when` is later than the last one a
// database applied: a migration added with an earlier `when` than one already shipped would be
// skipped on every existing database, silently. So a new migration is appended, numbered and timed
// after every other (this test holds the order; that nothing was inserted before a shipped entry
// is for review), and the journal names exactly the SQL files there are.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dir = fileURLToPath(new URL('../../../db/migrations/', import.meta.url));
const journal = JSON.parse(readFileSync(`${dir}meta/_journal.json`, 'utf8')) as { entries: Array<{ idx: number; when: number; tag: string }> };

describe('the migration journal', () => {
  it('lists entries in idx order with strictly increasing `when`, each tag numbered as its idx', () => {
    const { entries } = journal;
    for (let i = 1; i < entries.length; i++) {
      expect(entries[i]!.idx, entries[i]!.tag).toBeGreaterThan(entries[i - 1]!.idx);
      expect(entries[i]!.when, `${entries[i]!.tag} must come after ${entries[i - 1]!.tag}`).toBeGreaterThan(entries[i - 1]!.when);
    }
    for (const e of entries) expect(e.tag.slice(0, 4), e.tag).toBe(String(e.idx).padStart(4, '0'));
  });

  it('names exactly the SQL files of db/migrations', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.sql')).map((f) => f.replace(/\.sql$/, '')).sort();
    expect(journal.entries.map((e) => e.tag).sort()).toEqual(files);
  });
});
