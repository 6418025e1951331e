// DESIGN.md "Layers": workers → workflows, api, web, activities → services → db, integrations → domain.
// Nothing imports upward; production start-up never loads the dev-only embedded stack.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LAYER_FOLDERS, importCycles, layerViolations, moduleImports, queryPlacementViolations, type SourceFile } from '../../support/layer-rule';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Known violations, each `<file> -> <folder>`; none today. A new entry needs a reason and a plan. */
const ALLOWED_FOR_NOW = new Set<string>();

function productionFiles(): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name)) {
        files.push({ path: relative(ROOT, path).split(sep).join('/'), text: readFileSync(path, 'utf8') });
      }
    }
  };
  for (const folder of LAYER_FOLDERS) walk(join(ROOT, folder));
  return files;
}

const show = (violations: ReturnType<typeof layerViolations>) =>
  violations.map((v) => `${v.file} ${v.call ? 'calls' : 'imports'} ${v.imports}: ${v.reason}`);

describe('layers', () => {
  const files = productionFiles();

  it('reads the production folders only', () => {
    expect(files.length).toBeGreaterThan(100);
    for (const folder of LAYER_FOLDERS) expect(files.some((f) => f.path.startsWith(`${folder}/`))).toBe(true);
    expect(files.some((f) => /^(test|bench|scripts)\//.test(f.path))).toBe(false);
    // The console's pages are .tsx (hono/jsx): they answer to the same rules.
    expect(files.some((f) => f.path.endsWith('.tsx'))).toBe(true);
  });

  it('no production file imports upward', () => {
    expect(show(layerViolations(files, ALLOWED_FOR_NOW))).toEqual([]);
  });

  it('no SQL outside db/ and no transaction in api/', () => {
    expect(show(queryPlacementViolations(files))).toEqual([]);
  });

  it('no import cycle among the production files', () => {
    expect(importCycles(files)).toEqual([]);
  });

  it('every allow-listed violation still exists (remove an entry once its file moved)', () => {
    const found = new Set(layerViolations(files).map((v) => `${v.file} -> ${v.target}`));
    expect([...ALLOWED_FOR_NOW].filter((entry) => !found.has(entry))).toEqual([]);
  });
});

describe('the layer checker', () => {
  const check = (path: string, text: string) => show(layerViolations([{ path, text }]));

  it('finds static imports, re-exports and dynamic import() calls, telling type-only ones apart', () => {
    const imports = moduleImports(
      'x.ts',
      [
        "import { a } from './a';",
        "import type { B } from './b';",
        "import './c';",
        "export { d } from './d';",
        "export type { E } from './e';",
        "const f = await import('./f');",
        "type G = import('./g').G;",
        "import { type H } from './h';",
        '// import { z } from "./comment";',
      ].join('\n'),
    );
    expect(imports).toEqual([
      { specifier: './a', typeOnly: false },
      { specifier: './b', typeOnly: true },
      { specifier: './c', typeOnly: false },
      { specifier: './d', typeOnly: false },
      { specifier: './e', typeOnly: true },
      { specifier: './f', typeOnly: false },
      { specifier: './g', typeOnly: true },
      // verbatimModuleSyntax keeps this import: it loads ./h at run time.
      { specifier: './h', typeOnly: false },
    ]);
  });

  it('fails an upward import, in every form', () => {
    expect(check('domain/phone/x.ts', "import { placeOutboundCall } from '../../services/phone/placement';")).toEqual([
      'domain/phone/x.ts imports ../../services/phone/placement: domain/ may not import services/',
    ]);
    expect(check('db/queries/x.ts', "export { createApp } from '../../api/app';")).toHaveLength(1);
    expect(check('services/x.ts', "const m = await import('../api/app');")).toHaveLength(1);
    expect(check('activities/x.ts', "import type { AppEnv } from '../api/env';")).toHaveLength(1);
    expect(check('api/x.ts', "import { createActivities } from '../activities/index';")).toHaveLength(1);
    expect(check('integrations/x/y.ts', "import type { Db } from '../../db/client';")).toHaveLength(1);
  });

  it('lets workflows name activity types, never load activity code', () => {
    expect(check('workflows/x.ts', "import type { PhoneActivities } from '../activities/phone';")).toEqual([]);
    expect(check('workflows/x.ts', "import { type PhoneActivities } from '../activities/phone';")).toEqual([
      'workflows/x.ts imports ../activities/phone: workflows/ may not import activities/ except with `import type`',
    ]);
    expect(check('workflows/x.ts', "import { AppError } from '../domain/errors';")).toEqual([]);
  });

  it('allows downward and same-folder imports, and packages', () => {
    expect(check('api/phone/x.ts', "import { a } from '../../services/phone/placement';\nimport { b } from './schemas';")).toEqual([]);
    expect(check('services/x/y.ts', "import { a } from '../../db/client';\nimport { b } from '../../integrations/vapi/client';")).toEqual([]);
    expect(check('domain/x.ts', "import { z } from 'zod';\nimport { c } from './calendar/index';")).toEqual([]);
    expect(check('workers/x.ts', "import { createApp } from '../api/app';\nimport { w } from '../workflows/index';")).toEqual([]);
  });

  it('keeps the embedded dev stack out of everything but workers/dev.ts', () => {
    expect(check('workers/api.ts', "import { ensureBucket } from './embedded/seaweed';")).toEqual([
      'workers/api.ts imports ./embedded/seaweed: production code imports the dev-only embedded stack',
    ]);
    expect(check('workers/worker.ts', "import { x } from './embedded';")).toHaveLength(1);
    expect(check('workers/dev.ts', "import { startSeaweed } from './embedded/index';")).toEqual([]);
  });

  it('keeps api/ off the database at run time, types aside', () => {
    expect(check('api/access/x.ts', "import { insertAudit } from '../../db/queries/access-audit';")).toEqual([
      'api/access/x.ts imports ../../db/queries/access-audit: api/ may not import db/ except with `import type`',
    ]);
    expect(check('api/x.ts', "import { isTransientConflict } from '../db/errors';")).toHaveLength(1);
    expect(check('api/x.ts', "import type { Db } from '../db/client';\nimport { type Tx } from '../db/client';")).toHaveLength(1);
    expect(check('api/x.ts', "import type { Db } from '../db/client';")).toEqual([]);
    expect(check('services/x/y.ts', "import { insertAudit } from '../../db/queries/access-audit';")).toEqual([]);
  });

  it('gives web/ the rules of api/, plus api\'s HTTP plumbing and never a route', () => {
    expect(check('web/forms/x.ts', "import { createRouter } from '../../api/openapi';\nimport type { AppEnv } from '../../api/env';")).toEqual([]);
    expect(check('web/console/x.ts', "import { identity } from '../../api/middleware/identity';")).toEqual([]);
    expect(check('web/forms/x.ts', "import { AccessView } from '../../api/forms/outbound-schemas';")).toEqual([
      'web/forms/x.ts imports ../../api/forms/outbound-schemas: web/ may not import api/',
    ]);
    expect(check('web/x.ts', "import { insertAudit } from '../db/queries/access-audit';")).toHaveLength(1);
    expect(check('web/x.ts', "import type { Db } from '../db/client';\nimport { a } from '../services/forms/embed-tokens';")).toEqual([]);
    expect(check('api/forms/x.ts', "import { formMarkup } from '../../web/hosted/form-markup';")).toHaveLength(1);
    expect(check('api/app.ts', "import { webRoutes } from '../web/routes';")).toEqual([]);
  });

  it('keeps activities thin: no database code and no integration built in them', () => {
    expect(check('activities/x.ts', "import { closeOutbox } from '../db/outbox';")).toEqual([
      'activities/x.ts imports ../db/outbox: activities/ may not import db/ except with `import type`',
    ]);
    expect(check('activities/x.ts', "import { createScanner } from '../integrations/docstore/scanner';")).toHaveLength(1);
    expect(check('activities/x.ts', "import type { Scanner } from '../integrations/docstore/scanner';\nimport type { Db } from '../db/client';")).toEqual([]);
    expect(check('activities/x.ts', "import { rescanDocument } from '../services/documents/rescan-document';")).toEqual([]);
  });

  it('refuses the places SQL may not be written: drizzle-orm, db/schema, a transaction in api/', () => {
    const placement = (path: string, text: string) => show(queryPlacementViolations([{ path, text }]));
    expect(placement('services/forms/x.ts', "import { and, eq } from 'drizzle-orm';")).toEqual([
      'services/forms/x.ts imports drizzle-orm: services/ may not build queries: use a db/queries/ function',
    ]);
    expect(placement('activities/x.ts', "import { sql } from 'drizzle-orm/sql';")).toHaveLength(1);
    expect(placement('services/forms/x.ts', "import { formInstances } from '../../db/schema/forms';")).toEqual([
      'services/forms/x.ts imports ../../db/schema/forms: services/ may not load table definitions: use a db/queries/ function',
    ]);
    expect(placement('workflows/x.ts', "const s = await import('../db/schema/outbox');")).toHaveLength(1);
    expect(placement('services/forms/x.ts', "import type { formInstances } from '../../db/schema/forms';\nimport type { SQL } from 'drizzle-orm';")).toEqual([]);
    expect(placement('api/access/x.ts', 'const row = await deps.db.transaction(async (tx) => insert(tx));')).toEqual([
      'api/access/x.ts calls .transaction() at line 1: api/ may not open a transaction: a service owns it',
    ]);
    expect(placement('api/access/x.ts', "// never db.transaction( here\nconst s = 'db.transaction(';")).toEqual([]);
    expect(placement('services/access/x.ts', 'await db.transaction(async (tx) => insert(tx));')).toEqual([]);
    expect(placement('db/queries/x.ts', "import { eq } from 'drizzle-orm';\nimport { t } from '../schema/forms';")).toEqual([]);
    expect(placement('workers/x.ts', "import { sql } from 'drizzle-orm';")).toEqual([]);
  });

  it('reads .tsx files (JSX included) and resolves imports of them', () => {
    const page = 'import { consolePage } from \'./shell\';\nexport const P = () => <main>{consolePage}</main>;';
    expect(moduleImports('web/console/p.tsx', page)).toEqual([{ specifier: './shell', typeOnly: false }]);
    expect(check('web/console/p.tsx', "import { x } from '../../db/queries/tenants';\nconst A = () => <p>{x}</p>;")).toHaveLength(1);
    expect(importCycles([
      { path: 'web/console/a.tsx', text: "import { b } from './b';" },
      { path: 'web/console/b.ts', text: "import { a } from './a';" },
    ])).toEqual([['web/console/a.tsx', 'web/console/b.ts']]);
  });

  it('finds import cycles, type-only imports included, whatever the specifier form', () => {
    const files = [
      { path: 'domain/a.ts', text: "import { b } from './b.js';" },
      { path: 'domain/b.ts', text: "export { c } from './c';" },
      { path: 'domain/c.ts', text: "import { a } from './a';" },
      { path: 'domain/d.ts', text: "import type { e } from './e';" },
      { path: 'domain/e.ts', text: "export type { d } from './d';" },
      { path: 'domain/f/index.ts', text: "import { g } from '../g';" },
      { path: 'domain/g.ts', text: "import { f } from './f';" },
      { path: 'domain/h.ts', text: "import { a } from './a';\nimport { x } from 'zod';" },
    ];
    expect(importCycles(files)).toEqual([
      ['domain/a.ts', 'domain/b.ts', 'domain/c.ts'],
      ['domain/d.ts', 'domain/e.ts'],
      ['domain/f/index.ts', 'domain/g.ts'],
    ]);
    expect(importCycles(files.filter((f) => !/\/(c|e|g)\.ts$/.test(f.path)))).toEqual([]);
  });

  it('refuses imports that leave the production folders', () => {
    expect(check('api/x.ts', "import { servers } from '../test/support/servers';")).toEqual([
      'api/x.ts imports ../test/support/servers: test/support/servers is outside the production folders',
    ]);
  });

  it('honours an allow-list entry for exactly that file and folder', () => {
    const file = { path: 'integrations/docstore/z.ts', text: "import type { Db } from '../../db/client';" };
    expect(layerViolations([file], new Set(['integrations/docstore/z.ts -> db']))).toEqual([]);
    expect(layerViolations([file], new Set(['integrations/docstore/other.ts -> db']))).toHaveLength(1);
  });
});
