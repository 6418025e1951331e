// The ```bash blocks of a markdown section, as the walkthrough tests run them: the README's and
// docs/signatures.md's walkthroughs are read by the tests, so the text a user pastes is what runs.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** The ```bash blocks of the section `## <title>` of `markdown`, in order. */
export function sectionScripts(markdown: string, title: string): string[] {
  const start = markdown.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`the document has no section "## ${title}"`);
  const end = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^```bash\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/**
 * The blocks joined into one `bash -euo pipefail` script with each `from` URL replaced by its `to`
 * (the documents name the conventional ports; a test run has its own), run in `cwd`.
 * Rejects with stdout, stderr and `context()` (e.g. the platform's output) when the script fails.
 */
export async function runScripts(
  blocks: readonly string[],
  opts: { urls: Record<string, string>; cwd: string; timeoutMs: number; context: () => string },
): Promise<{ stdout: string; stderr: string }> {
  let script = blocks.join('\n');
  for (const [from, to] of Object.entries(opts.urls)) script = script.replaceAll(from, to);
  return promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], { cwd: opts.cwd, timeout: opts.timeoutMs, maxBuffer: 16 * 1024 * 1024 }).catch(
    (err: { stdout?: string; stderr?: string; message: string; code?: number | string; signal?: string }) => {
      const how = err.signal ? `signal ${err.signal}` : `exit ${err.code}`;
      throw new Error(`the walkthrough failed (${how}): ${err.message}\n--- stdout\n${err.stdout}\n--- stderr\n${err.stderr}\n--- platform\n${opts.context()}`);
    },
  );
}
