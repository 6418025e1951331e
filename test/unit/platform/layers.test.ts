// DESIGN.md "Layers": workers → workflows, api, activities → services → db, integrations → domain.
// Nothing imports upward; production start-up never loads the dev-only embedded stack.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LAYER_FOLDERS, layerViolations, moduleImports, type SourceFile } from '../../support/layer-rule';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Known violations, each `<file> -> <folder>`; none today. A new entry needs a reason and a plan. */
const ALLOWED_FOR_NOW = new Set<string>();

function productionFiles(): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) {
        files.push({ path: relative(ROOT, path).split(sep).join('/'), text: readFileSync(path, 'utf8') });
      }
    }
  };
  for (const folder of LAYER_FOLDERS) walk(join(ROOT, folder));
  return files;
}

const show = (violations: ReturnType<typeof layerViolations>) =>
  violations.map((v) => `${v.file} imports ${v.imports}: ${v.reason}`);

describe('layers', () => {
  const files = productionFiles();

  it('reads the production folders only', () => {
    expect(files.length).toBeGreaterThan(100);
    for (const folder of LAYER_FOLDERS) expect(files.some((f) => f.path.startsWith(`${folder}/`))).toBe(true);
    expect(files.some((f) => /^(test|bench|scripts)\//.test(f.path))).toBe(false);
  });

  it('no production file imports upward', () => {
    expect(show(layerViolations(files, ALLOWED_FOR_NOW))).toEqual([]);
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
