/**
 * The texts of a form schema (title, labels, option values, condition values...) and how the check
 * and the repair read a JSON value: own properties only, so a key such as `constructor` never
 * reaches Object.prototype.
 */
import { LIMITS } from './field-types';
import { codePointLength, cleanText, cutToCodePoints, hasUncleanText } from './text-cleaning';

export interface TextRule {
  max: number;
  /** keeps tab, LF and CR */
  multiline?: boolean;
  /** must not be blank */
  required?: boolean;
}

export const TEXT_RULES = {
  title: { max: LIMITS.title, required: true },
  description: { max: LIMITS.description, multiline: true },
  label: { max: LIMITS.label, required: true },
  help: { max: LIMITS.help, multiline: true },
  placeholder: { max: LIMITS.placeholder },
  optionValue: { max: LIMITS.optionValue, required: true },
  optionLabel: { max: LIMITS.optionLabel, required: true },
  conditionValue: { max: LIMITS.patternedValue, required: true },
} as const satisfies Record<string, TextRule>;

export type JsonObject = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const own = (o: JsonObject, key: string): unknown => (Object.hasOwn(o, key) ? o[key] : undefined);

/** Why `value` cannot be a schema text under `rule`, or undefined when it can. */
export function textProblem(value: unknown, rule: TextRule): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  if (rule.required && value.trim() === '') return 'must not be blank';
  if (codePointLength(value) > rule.max) return `must be at most ${rule.max} characters`;
  if (hasUncleanText(value, rule.multiline ?? false)) {
    return rule.multiline ? 'must not contain control characters other than tab and line breaks' : 'must not contain control characters or line breaks';
  }
  return undefined;
}

/** `value` made acceptable under `rule` (cleaned, cut), or undefined when nothing usable is left. */
export function repairText(value: unknown, rule: TextRule): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = cutToCodePoints(cleanText(value, rule.multiline ?? false), rule.max);
  if (text.trim() === '') return undefined;
  return text;
}

/** A `visibleIf` value: a non-blank string, a finite number or a boolean. */
export function conditionValueProblem(value: unknown): string | undefined {
  if (typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : 'must be a finite number';
  if (typeof value === 'string') return textProblem(value, TEXT_RULES.conditionValue);
  return 'must be a string, a number or true/false';
}
