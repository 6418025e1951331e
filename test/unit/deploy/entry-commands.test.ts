// How the platform's processes are started outside Kubernetes (npm scripts, the Dockerfile, docker
// compose): as `node --import tsx <entry>`, the same as the Helm chart. The tsx CLI runs the entry
// point as a child and relays SIGTERM to it, and when the child has not acknowledged the signal
// within about 60 ms (an event loop busy for that long), it SIGKILLs the child: the graceful stop
// (workers/shutdown.ts: drain, then stop the servers in order) never runs, and `npm start`'s
// embedded servers are left to stop on their own. A busy entry point started this way gets its
// SIGTERM handler run.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from './helm';

const ENTRY_COMMAND = /^node --import tsx (workers\/[\w-]+\.ts)$/;
const scripts = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

describe('entry commands', () => {
  it('npm start, start:api and start:worker run their entry point under node --import tsx', () => {
    for (const name of ['start', 'start:api', 'start:worker']) {
      const entry = ENTRY_COMMAND.exec(scripts[name] ?? '')?.[1];
      expect(entry, `${name}: ${scripts[name]}`).toBeDefined();
      expect(existsSync(join(repoRoot, entry!))).toBe(true);
    }
  });

  it('the image and the compose stack run the entry point as PID 1, with no npm or tsx parent', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(join(repoRoot, 'Dockerfile'), 'utf8'))?.[1];
    expect(JSON.parse(cmd!)).toEqual(['node', '--import', 'tsx', 'workers/api.ts']);
    const compose = parse(readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8')) as { services: Record<string, { build?: string; command?: string[] }> };
    const ours = Object.entries(compose.services).filter(([, s]) => s.build === '.');
    expect(ours.map(([name]) => name).sort()).toEqual(['api', 'worker']);
    for (const [name, service] of ours) {
      expect(service.command!.slice(0, 3), name).toEqual(['node', '--import', 'tsx']);
      expect(existsSync(join(repoRoot, service.command![3]!))).toBe(true);
    }
  });

  it('an entry point started as npm start starts it runs its SIGTERM handler though its event loop is busy', async () => {
    const [node, ...args] = scripts['start:api']!.split(' ').slice(0, -1);
    expect(node).toBe('node');
    const child = spawn(process.execPath, [...args, join(import.meta.dirname, 'fixtures/busy-entry.ts')], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (d) => (output += String(d)));
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (code, signal) => resolve([code, signal])));
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.kill('SIGTERM');
    expect(await exited).toEqual([0, null]);
    expect(output).toContain('stopped in order');
  });
});
