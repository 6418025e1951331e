// Worker Versioning (docs/releases.md): every workflow type the platform worker runs declares its
// versioning behaviour with setWorkflowOptions, as docs/releases.md lists it, so none falls back
// on the worker's default without anyone having chosen it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { platformWorkflowTypes } from './corpus';

/** versioningBehaviour('PINNED') (workflows/versioning-behaviour.ts) or a plain `{ versioningBehavior }`. */
type Declared = { workflowDefinitionOptions?: { behaviour?: string; versioningBehavior?: string } };

describe('versioning behaviour per workflow type', () => {
  it('each type declares PINNED or AUTO_UPGRADE, and docs/releases.md names the same', async () => {
    const docs = readFileSync(new URL('../../docs/releases.md', import.meta.url), 'utf8');
    const types = await platformWorkflowTypes();
    expect(types.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const { name, fn } of types) {
      const options = (fn as Declared).workflowDefinitionOptions;
      const behaviour = options?.behaviour ?? options?.versioningBehavior;
      if (!behaviour || !/^(PINNED|AUTO_UPGRADE)$/.test(behaviour)) problems.push(`${name} declares no versioning behaviour`);
      else if (!docs.includes(`| \`${name}\` | ${behaviour} |`)) problems.push(`docs/releases.md does not list ${name} as ${behaviour}`);
    }
    expect(problems).toEqual([]);
  });
});
