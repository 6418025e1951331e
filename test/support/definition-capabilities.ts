// The two capabilities on the one definition lifecycle, described for tests that run the same
// cases over both (test/integration/definitions/).
import { INVALID_DRAFT, VALID_DRAFT } from './forms';
import { validSigningSchema } from './signatures';

export interface LifecycleCapability {
  code: 'FORMS' | 'SIGNATURES';
  base: string;
  codePrefix: string;
  /** The capability's own create fields. */
  createFields: Record<string, unknown>;
  /** A valid draft; `n` makes drafts of one definition differ. */
  valid(n: number): Record<string, unknown>;
  /** A draft with error-level problems. */
  invalid: unknown;
  tables: { definitions: string; versions: string };
}

export const LIFECYCLE_CAPABILITIES: LifecycleCapability[] = [
  {
    code: 'FORMS',
    base: '/api/form-definitions',
    codePrefix: 'FM-',
    createFields: { kind: 'INBOUND' },
    valid: (n) => ({ ...VALID_DRAFT, title: `v${n}` }),
    invalid: INVALID_DRAFT,
    tables: { definitions: 'form_definitions', versions: 'form_versions' },
  },
  {
    code: 'SIGNATURES',
    base: '/api/signature-definitions',
    codePrefix: 'SG-',
    createFields: {},
    valid: (n) => {
      const s = validSigningSchema(2, '7f0c6a52-3b5e-4a44-9c1e-2d7a0d9b1c11');
      s.document.name = `v${n}.pdf`;
      return s;
    },
    invalid: { document: { name: 'x.pdf' }, signers: [] },
    tables: { definitions: 'signature_definitions', versions: 'signature_versions' },
  },
];
