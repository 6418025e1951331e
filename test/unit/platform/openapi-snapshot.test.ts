// The OpenAPI document is the HTTP contract: a change to it is a decision, made visibly by
// updating this snapshot (`npx vitest run -u test/unit/platform/openapi-snapshot.test.ts`),
// never a side effect of moving code between layers.
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../support/openapi-inputs';

describe('the served OpenAPI document', () => {
  it('matches the committed contract byte for byte', async () => {
    const text = `${JSON.stringify(await openApiDocument(), null, 2)}\n`;
    await expect(text).toMatchFileSnapshot('./__snapshots__/openapi.json');
  });
});
