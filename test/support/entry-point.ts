// Runs a real entry point (`workers/dev.ts`, `workers/api.ts`, `workers/worker.ts`) as its own
// process on the Node running the tests, as `npm start` runs it (`node --import tsx`, so SIGTERM
// reaches its own handler), with an environment that holds no setting but the ones
// given, so a developer's or CI's variables never leak in.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { envName, settingDefs } from '../../workers/config';

const ROOT = resolve(import.meta.dirname, '../..');

export interface EntryPoint {
  /** stdout and stderr so far. */
  output(): string;
  /** Polls `url` until it answers 200; fails early if the process exits. */
  waitFor(url: string, timeoutMs: number): Promise<void>;
  /** Polls the output until `text` appears; fails early if the process exits. */
  waitForOutput(text: string, timeoutMs: number): Promise<void>;
  /** SIGTERM (a graceful stop of every part it started), then the whole group after 30 s. */
  stop(): Promise<void>;
}

export function startEntryPoint(script: string, settingsEnv: Record<string, string>): EntryPoint {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of Object.keys(settingDefs)) delete env[envName(name)];
  // Entry points run side by side in one test run: no fixed metrics port unless a test asks for one.
  Object.assign(env, { [envName('metrics.port')]: '0' }, settingsEnv);

  const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  let exitCode: number | null | undefined;
  const exited = once(child, 'exit').then(([code]) => {
    exitCode = code as number | null;
  });

  const poll = async (what: string, timeoutMs: number, ready: () => Promise<boolean>) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (exitCode !== undefined) throw new Error(`${script} exited (${exitCode}) before ${what}:\n${output}`);
      if (await ready()) return;
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error(`${script}: no ${what} within ${timeoutMs} ms:\n${output}`);
  };

  return {
    output: () => output,
    waitFor: (url, timeoutMs) =>
      poll(`200 from ${url}`, timeoutMs, async () => {
        const res = await fetch(url).catch(() => undefined);
        await res?.body?.cancel();
        return res?.status === 200;
      }),
    waitForOutput: (text, timeoutMs) => poll(`"${text}" in its output`, timeoutMs, async () => output.includes(text)),
    async stop() {
      if (exitCode !== undefined || child.pid === undefined) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
