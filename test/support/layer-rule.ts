import { posix } from 'node:path';
import ts from 'typescript';

/** The production folders, top to bottom (DESIGN.md "Layers"). */
export const LAYER_FOLDERS = [
  'workers',
  'workflows',
  'api',
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
  api: BELOW_SERVICES,
  activities: BELOW_SERVICES,
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
};

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
}

/** Static imports, re-exports and dynamic `import()` calls of one file. */
export function moduleImports(path: string, text: string): ModuleImport[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
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
  if (to === from || ALLOWED[from].includes(to)) return null;
  if (typeOnly && ALLOWED_TYPE_ONLY[from]?.includes(to)) return null;
  return `${from}/ may not import ${to}/${ALLOWED_TYPE_ONLY[from]?.includes(to) ? ' except with `import type`' : ''}`;
}
