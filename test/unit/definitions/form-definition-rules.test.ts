import { describe, expect, it } from 'vitest';
import { hasErrors } from '../../../domain/definitions/schema-rules';
import { formDefinitionRules } from '../../../domain/forms/definition-rules';
import { INVALID_DRAFT, VALID_DRAFT } from '../../support/forms';

describe('forms plug-in schema rules', () => {
  it('the valid test draft has no errors, the invalid one has', () => {
    expect(hasErrors(formDefinitionRules.check(VALID_DRAFT))).toBe(false);
    expect(hasErrors(formDefinitionRules.check(INVALID_DRAFT))).toBe(true);
    expect(hasErrors(formDefinitionRules.check('text'))).toBe(true);
  });

  it('anything but an object reads as the empty form, which is valid', () => {
    for (const raw of [undefined, null, 'x', 3, []]) {
      const repaired = formDefinitionRules.repair(raw);
      expect(repaired).toEqual({ title: 'Untitled form', fields: [] });
      expect(hasErrors(formDefinitionRules.check(repaired))).toBe(false);
    }
  });

  it('a JSON Schema is an object schema', () => {
    expect(formDefinitionRules.jsonSchema(VALID_DRAFT)).toMatchObject({ type: 'object' });
  });
});
