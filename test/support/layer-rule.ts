import { posix } from 'node:path';
import ts from 'typescript';

/** The production folders, top to bottom (DESIGN.md "Layers"). */
export const LAYER_FOLDERS = [
  'workers',
  'workflows',
  'api',
  'web',
  'activities',
  'services',
  'integrations',
  'db',
  'domain',
] as const;
export type LayerFolder = (typeof LAYER_FOLDERS)[number];

const BELOW_SERVICES: readonly LayerFolder[] = ['services', 'db', 'integrations', 'domain'];

/** Which folders a file in each folder may import at run time; same-folder imports are always fine. */
const ALLOWED: Record<LayerFolder, readonly LayerFolder[]> = {
  workers: LAYER_FOLDERS,
  workflows: ['domain'],
  // HTTP only: an operation or a query a route needs is a service function (DESIGN.md "Layers").
  api: ['services', 'integrations', 'domain'],
  // The server-rendered pages stand beside api/ (issue 21): the same rules, plus api's HTTP plumbing below.
  web: ['services', 'integrations', 'domain'],
  // Thin wrappers over services (DESIGN.md "Layers"): integrations arrive built, through ActivityDeps.
  activities: ['services', 'domain'],
  services: BELOW_SERVICES,
  integrations: ['domain'],
  db: ['domain'],
  domain: [],
};

/**
 * Imports erased at compile time that are still allowed: a workflow names its activities' types
 * (proxyActivities<typeof ...>) but must never load their code into the workflow sandbox.
 */
const ALLOWED_TYPE_ONLY: Partial<Record<LayerFolder, readonly LayerFolder[]>> = {
  workflows: ['activities'],
  // A route may name a row type (`Db`, a query's row) as long as it loads no database code.
  api: ['db'],
  web: ['db'],
  activities: ['db', 'integrations'],
};

/**
 * What `web/` may borrow from `api/`: the HTTP plumbing both floors share (middleware, the router
 * factory, the env and deps types, the input vocabulary), never a route. `api/` reaches `web/` only
 * where `createApp` mounts the pages.
 */
const API_PLUMBING = ['api/middleware/', 'api/openapi', 'api/env', 'api/deps', 'api/vocabulary', 'api/body'];
const sharedPlumbing = (file: string, from: LayerFolder, target: string, to: LayerFolder | undefined) =>
  (from === 'web' && to === 'api' && API_PLUMBING.some((p) => target.startsWith(p))) ||
  (file === 'api/app.ts' && to === 'web');

/** The embedded dev stack is started by `npm start` only; production start-up never loads it. */
const EMBEDDED = 'workers/embedded/';
const MAY_IMPORT_EMBEDDED = (file: string) => file === 'workers/dev.ts' || file.startsWith(EMBEDDED);

export interface SourceFile {
  /** Path relative to the repository root, with forward slashes. */
  path: string;
  text: string;
}

export interface ModuleImport {
  specifier: string;
  /** `import type` / `export type`: erased, loads nothing at run time. */
  typeOnly: boolean;
}

export interface LayerViolation {
  file: string;
  /** The specifier as written. */
  imports: string;
  /** The folder it reaches (or the resolved path, outside the production folders). */
  target: string;
  reason: string;
  /** A call found in the code (a transaction) rather than an import. */
  call?: true;
}

const scriptKindOf = (path: string) => (path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);

/** Static imports, re-exports and dynamic `import()` calls of one file. */
export function moduleImports(path: string, text: string): ModuleImport[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, scriptKindOf(path));
  const found: ModuleImport[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.importClause?.isTypeOnly ?? false });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, typeOnly: false });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const folderOf = (path: string): LayerFolder | undefined =>
  LAYER_FOLDERS.find((folder) => `${path}/`.startsWith(`${folder}/`));

/**
 * Every relative import that points up (or out of the production folders), one entry each.
 * An allow-list entry `<file> -> <target>` lets one file keep reaching one folder.
 */
export function layerViolations(files: readonly SourceFile[], allowList: ReadonlySet<string> = new Set()): LayerViolation[] {
  const violations: LayerViolation[] = [];
  for (const file of files) {
    const from = folderOf(file.path);
    if (!from) continue;
    for (const { specifier, typeOnly } of moduleImports(file.path, file.text)) {
      if (!specifier.startsWith('.')) continue;
      const target = posix.normalize(posix.join(posix.dirname(file.path), specifier));
      const to = folderOf(target);
      const reason = refusal(file.path, from, target, to, typeOnly);
      const reached = to ?? target;
      if (!reason || allowList.has(`${file.path} -> ${reached}`)) continue;
      violations.push({ file: file.path, imports: specifier, target: reached, reason });
    }
  }
  return violations;
}

function refusal(file: string, from: LayerFolder, target: string, to: LayerFolder | undefined, typeOnly: boolean) {
  if (!to) return `${target} is outside the production folders`;
  if (`${target}/`.startsWith(EMBEDDED) && !MAY_IMPORT_EMBEDDED(file)) return 'production code imports the dev-only embedded stack';
  if (to === from || ALLOWED[from].includes(to) || sharedPlumbing(file, from, target, to)) return null;
  if (typeOnly && ALLOWED_TYPE_ONLY[from]?.includes(to)) return null;
  return `${from}/ may not import ${to}/${ALLOWED_TYPE_ONLY[from]?.includes(to) ? ' except with `import type`' : ''}`;
}

/** Folders whose files reach the database only through `db/queries/` (or `db/outbox.ts`) functions. */
const NO_INLINE_SQL: readonly LayerFolder[] = ['api', 'web', 'activities', 'services', 'workflows'];

/**
 * Where SQL and transactions may be written (DESIGN.md "Queries"): `drizzle-orm` and the
 * `db/schema/` tables are loaded at run time by `db/` (and the composition root in `workers/`)
 * only, and `api/` never opens a transaction: it calls a service that does.
 */
export function queryPlacementViolations(files: readonly SourceFile[]): LayerViolation[] {
  const violations: LayerViolation[] = [];
  for (const file of files) {
    const from = folderOf(file.path);
    if (!from || !NO_INLINE_SQL.includes(from)) continue;
    for (const { specifier, typeOnly } of moduleImports(file.path, file.text)) {
      if (typeOnly) continue;
      if (specifier === 'drizzle-orm' || specifier.startsWith('drizzle-orm/')) {
        violations.push({ file: file.path, imports: specifier, target: specifier, reason: `${from}/ may not build queries: use a db/queries/ function` });
        continue;
      }
      if (!specifier.startsWith('.')) continue;
      const target = posix.normalize(posix.join(posix.dirname(file.path), specifier));
      if (`${target}/`.startsWith('db/schema/')) {
        violations.push({ file: file.path, imports: specifier, target, reason: `${from}/ may not load table definitions: use a db/queries/ function` });
      }
    }
    if (from === 'api' || from === 'web') {
      for (const line of transactionCalls(file)) {
        violations.push({ file: file.path, imports: `.transaction() at line ${line}`, target: 'db', reason: `${from}/ may not open a transaction: a service owns it`, call: true });
      }
    }
  }
  return violations;
}

/** Lines (1-based) of calls to a `.transaction(...)` method; comments and strings do not count. */
function transactionCalls(file: SourceFile): number[] {
  const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true, scriptKindOf(file.path));
  const lines: number[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'transaction') {
      lines.push(source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lines;
}

/** The production file a relative specifier loads (`./x`, `./x.js`, `./dir` → `./dir/index.ts`), if it is one of `files`. */
function resolveModule(from: string, specifier: string, paths: ReadonlySet<string>): string | undefined {
  const base = posix.normalize(posix.join(posix.dirname(from), specifier)).replace(/\.jsx?$/, '');
  return [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`, base].find((candidate) => paths.has(candidate));
}

/**
 * Import cycles among the production files, type-only imports included: an erased import cannot
 * make a module see another half-initialised, but a cycle of types is still two files that can
 * only be read together. Each cycle is listed once, its files sorted (Tarjan's strongly connected
 * components).
 */
export function importCycles(files: readonly SourceFile[]): string[][] {
  const paths = new Set(files.map((f) => f.path));
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const targets = moduleImports(file.path, file.text)
      .filter((i) => i.specifier.startsWith('.'))
      .map((i) => resolveModule(file.path, i.specifier, paths))
      .filter((t): t is string => t !== undefined);
    edges.set(file.path, targets);
  }
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    const selfLoop = (edges.get(v) ?? []).includes(v);
    if (component.length > 1 || selfLoop) cycles.push(component.sort());
  };
  for (const path of [...paths].sort()) if (!index.has(path)) connect(path);
  return cycles;
}
