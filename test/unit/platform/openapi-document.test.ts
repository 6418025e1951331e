import { describe, expect, it } from 'vitest';
import { fixNullableRefs } from '../../../api/openapi-document';
import { openApiDocument } from '../../support/openapi-inputs';

describe('the served OpenAPI document', () => {
  it('writes a nullable reference so that null satisfies it', () => {
    const generated = { properties: { level: { allOf: [{ $ref: '#/components/schemas/Level' }, { type: ['string', 'null'], description: 'null while …' }] } } };
    expect(fixNullableRefs(generated)).toEqual({
      properties: { level: { description: 'null while …', anyOf: [{ $ref: '#/components/schemas/Level' }, { type: 'null' }] } },
    });
  });

  it('has no allOf that a null could never satisfy', async () => {
    const text = JSON.stringify(await openApiDocument());
    expect(text).toContain('"anyOf":[{"$ref":"#/components/schemas/Level"},{"type":"null"}]');
    expect(text).not.toMatch(/"allOf":\[\{"\$ref":"[^"]+"\},\{"type":\["[a-z]+","null"\]/);
  });
});
