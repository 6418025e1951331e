// Renders the Helm chart with the helm binary that scripts/install-helm.sh builds (or finds
// already built) into .tools/helm/, and parses what it prints.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseAllDocuments, stringify } from 'yaml';

const run = promisify(execFile);

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const chartDir = join(repoRoot, 'deploy/helm/tenant-platform');

/** A rendered Kubernetes object; tests read it field by field. */
export type K8sObject = Record<string, any>;

const tail = (text: string, lines = 30) => text.trim().split('\n').slice(-lines).join('\n');

/** The helm binary's path: built on the first call on a machine (minutes), found afterwards. */
export async function locateHelm(): Promise<string> {
  const script = join(repoRoot, 'scripts/install-helm.sh');
  try {
    const { stdout } = await run('bash', [script], { maxBuffer: 16 * 1024 * 1024 });
    return stdout.trim().split('\n').pop()!;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(
      `The chart test needs helm, and \`bash scripts/install-helm.sh\` could not provide it ` +
        `(it builds helm.sh/helm/v3 from the Go module proxy with the \`go\` command into .tools/helm/; ` +
        `install Go and make the module proxy reachable, then run the script once):\n${tail(e.stderr ?? e.message)}`,
    );
  }
}

export interface RenderOptions {
  /** Values files, relative to the chart (`ci/keda-values.yaml`). */
  files?: string[];
  /** Values given inline, written to a temporary file. */
  values?: Record<string, unknown>;
  /** Extra helm arguments (`--skip-schema-validation`). */
  args?: string[];
}

async function helm(bin: string, command: string[], o: RenderOptions) {
  const dir = await mkdtemp(join(tmpdir(), 'helm-values-'));
  try {
    const args = [...command, ...(o.files ?? []).flatMap((f) => ['-f', join(chartDir, f)])];
    if (o.values) {
      const file = join(dir, 'values.yaml');
      await writeFile(file, stringify(o.values));
      args.push('-f', file);
    }
    args.push(...(o.args ?? []));
    return await run(bin, args, { maxBuffer: 16 * 1024 * 1024, cwd: repoRoot });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `helm template` of the chart; resolves to the rendered text and its objects. */
export async function renderChart(bin: string, o: RenderOptions = {}): Promise<{ text: string; objects: K8sObject[] }> {
  const { stdout } = await helm(bin, ['template', 'tp', chartDir, '--namespace', 'platform'], o);
  const objects = parseAllDocuments(stdout)
    .map((doc) => {
      if (doc.errors.length) throw new Error(`helm printed invalid YAML: ${doc.errors[0]!.message}`);
      return doc.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null);
  return { text: stdout, objects };
}

/** A render that must fail: resolves to everything helm printed. */
export async function renderFailure(bin: string, o: RenderOptions): Promise<string> {
  try {
    const { stdout } = await helm(bin, ['template', 'tp', chartDir, '--namespace', 'platform'], o);
    throw new Error(`helm template succeeded where it must fail:\n${tail(stdout)}`);
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; code?: number };
    if (e.code === undefined) throw err;
    return `${e.stdout ?? ''}\n${e.stderr ?? ''}`;
  }
}

/** `helm lint --strict`; resolves to its output, rejects naming its findings. */
export async function lintChart(bin: string, o: RenderOptions = {}): Promise<string> {
  try {
    const { stdout } = await helm(bin, ['lint', '--strict', chartDir], o);
    return stdout;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    throw new Error(`helm lint --strict failed:\n${tail(`${e.stdout ?? ''}\n${e.stderr ?? ''}`)}`);
  }
}

export const ofKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
