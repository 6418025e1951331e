/**
 * The form schema: the one JSON format a form definition's draft and versions hold (see
 * docs/forms.md "Form schema"). Checking a draft lives in schema-check.ts, repairing a stored one
 * in schema-repair.ts, the field types in field-types.ts.
 */
import type { FieldType } from './field-types';

export interface FieldOption {
  value: string;
  label: string;
}

export interface FieldValidation {
  /** number */
  min?: number;
  max?: number;
  integer?: boolean;
  /** text, textarea, email, tel, hidden; counted in characters (code points) */
  minLength?: number;
  maxLength?: number;
  /** a JavaScript (Unicode mode) regular expression the whole value must match */
  pattern?: string;
  /** multiselect, file */
  minItems?: number;
  maxItems?: number;
}

export type ConditionValue = string | number | boolean;

/** Show the field only when the earlier field `field` holds `equals`, or one of `in`. */
export interface VisibleIf {
  field: string;
  equals?: unknown;
  in?: unknown[];
}

export interface FormField {
  key: string;
  type: FieldType;
  label: string;
  required?: boolean;
  help?: string;
  placeholder?: string;
  options?: FieldOption[];
  validation?: FieldValidation;
  visibleIf?: VisibleIf;
}

export interface FormSchema {
  title: string;
  description?: string;
  fields: FormField[];
}

export interface SchemaProblem {
  /** Where, e.g. `title`, `fields[2].key`, `fields[0].validation.pattern`; '' for the whole schema. */
  path: string;
  level: 'error' | 'warning';
  message: string;
}
