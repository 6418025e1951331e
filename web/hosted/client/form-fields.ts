/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// What every hosted form's script does with the markup of form-markup.ts: read the values, show
// and hide fields by `visibleIf` (with the server's own visibleFields), and show problems on the
// fields and in the error summary, each withdrawn as soon as its field is fixed (checked with the
// server's own validateSubmission on every input and change of that field, not at the next
// submit). The embed and respond scripts differ only in where they send.
import { TYPE_TRAITS } from '../../../domain/forms/field-types';
import type { FormField, FormSchema } from '../../../domain/forms/form-schema';
import { validateSubmission, type SubmissionError } from '../../../domain/forms/submission';
import { visibleFields } from '../../../domain/forms/visibility';

export interface FormFields {
  readValues(): Record<string, unknown>;
  applyVisibility(): void;
  clearErrors(): void;
  /** Paths are field keys (`email`, `tags.1`); '' is the whole form. */
  showErrors(errors: SubmissionError[]): void;
  /** Withdraws the field's error once the rules accept its value (a file field after an upload). */
  recheckField(key: string): void;
}

export interface FormFieldsOptions {
  /** The document ids of a file field (the embed page's uploads). */
  filesOf?: (key: string) => string[];
  /** Fields shown but never editable here (the respond page's PREPARER fields): their controls stay disabled. */
  locked?: ReadonlySet<string>;
}

export function formFields(schema: FormSchema, form: HTMLFormElement, summary: HTMLElement, options: FormFieldsOptions = {}): FormFields {
  const locked = options.locked ?? new Set<string>();
  const controls = (key: string) => Array.from(form.querySelectorAll<HTMLInputElement>(`[name="${key}"]`));

  function valueOf(field: FormField): unknown {
    const els = controls(field.key);
    const el = els[0];
    switch (TYPE_TRAITS[field.type].value) {
      case 'none':
        return undefined;
      case 'files':
        return options.filesOf?.(field.key) ?? [];
      case 'boolean':
        return el?.checked ?? false;
      case 'choices':
        return els.filter((e) => e.checked).map((e) => e.value);
      case 'choice':
        return field.type === 'radio' ? els.find((e) => e.checked)?.value : el?.value;
      case 'number': {
        if (!el || el.value === '') return undefined;
        const n = Number(el.value);
        return Number.isFinite(n) ? n : el.value;
      }
      default:
        return el?.value;
    }
  }

  function readValues(): Record<string, unknown> {
    const values: Record<string, unknown> = {};
    for (const field of schema.fields) {
      const value = valueOf(field);
      if (value !== undefined) values[field.key] = value;
    }
    return values;
  }

  function applyVisibility() {
    const shown = new Set(visibleFields(schema, readValues()).map((f) => f.key));
    for (const el of Array.from(form.querySelectorAll<HTMLElement>('.field[data-field], .content[data-field]'))) {
      const key = el.dataset.field!;
      const visible = shown.has(key);
      el.hidden = !visible;
      for (const c of Array.from(el.querySelectorAll<HTMLInputElement>('input, select, textarea'))) c.disabled = !visible || locked.has(key);
    }
  }

  const labelOf = (key: string) => schema.fields.find((f) => f.key === key)?.label ?? key;
  /** Fields showing an error now. */
  const flagged = new Set<string>();

  function clearErrors() {
    flagged.clear();
    summary.hidden = true;
    summary.querySelector('ul')!.replaceChildren();
    for (const el of Array.from(form.querySelectorAll<HTMLElement>('.error'))) {
      el.hidden = true;
      el.textContent = '';
    }
    for (const el of Array.from(form.querySelectorAll('[aria-invalid]'))) el.removeAttribute('aria-invalid');
  }

  /** One field's error off the field and out of the summary; the summary goes when it is empty. */
  function clearField(key: string) {
    flagged.delete(key);
    const text = document.getElementById(`f-${key}-error`);
    if (text) {
      text.hidden = true;
      text.textContent = '';
    }
    const target = document.getElementById(`f-${key}`);
    if (target) for (const c of [target, ...Array.from(target.querySelectorAll('input'))]) c.removeAttribute('aria-invalid');
    const list = summary.querySelector('ul')!;
    for (const item of Array.from(list.querySelectorAll<HTMLElement>('li[data-key]'))) if (item.dataset.key === key) item.remove();
    if (!list.children.length) summary.hidden = true;
  }

  /** Once the rules accept a flagged field, its error goes (another field's stays until that one is fixed). */
  function recheckField(key: string) {
    if (!flagged.has(key)) return;
    const checked = validateSubmission(schema, readValues());
    if (checked.ok || !checked.errors.some((e) => e.path.split('.')[0] === key)) clearField(key);
  }

  /** On every edit of a field, not at the next submit. */
  function recheck(event: Event) {
    const key = (event.target as HTMLElement | null)?.closest<HTMLElement>('[data-field]')?.dataset.field;
    if (key) recheckField(key);
  }
  form.addEventListener('input', recheck);
  form.addEventListener('change', recheck);

  function showErrors(errors: SubmissionError[]) {
    clearErrors();
    const list = summary.querySelector('ul')!;
    for (const { path, message } of errors) {
      const key = path.split('.')[0] ?? '';
      const target = key ? document.getElementById(`f-${key}`) : null;
      const item = document.createElement('li');
      if (target) {
        flagged.add(key);
        item.dataset.key = key;
        const link = document.createElement('a');
        link.href = `#f-${key}`;
        link.textContent = `${labelOf(key)}: ${message}`;
        link.addEventListener('click', (e) => {
          e.preventDefault();
          (target.querySelector('input') ?? target).focus();
        });
        item.append(link);
        const text = document.getElementById(`f-${key}-error`);
        if (text) {
          text.textContent = text.textContent ? `${text.textContent} ${message}` : message;
          text.hidden = false;
        }
        for (const c of [target, ...Array.from(target.querySelectorAll('input'))]) c.setAttribute('aria-invalid', 'true');
      } else item.textContent = message;
      list.append(item);
    }
    summary.hidden = false;
    summary.focus();
  }

  return { readValues, applyVisibility, clearErrors, showErrors, recheckField };
}

/** A problem answer's detail, for a message. */
export async function problemOf(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { detail?: string; title?: string };
    return body.detail ?? body.title ?? `HTTP ${res.status}`;
  } catch {
    return `HTTP ${res.status}`;
  }
}

/**
 * The errors of a refused submit, on the fields the server named: the server is the authority, and
 * its field paths are `data.<key>`. A problem without field errors is one message for the form.
 */
export async function serverErrors(res: Response, fallback: string): Promise<SubmissionError[]> {
  const problem = (await res.json().catch(() => ({}))) as { errors?: SubmissionError[]; detail?: string };
  const errors = (problem.errors ?? []).map((e) => ({ path: e.path.replace(/^data\.?/, ''), message: e.message }));
  return errors.length ? errors : [{ path: '', message: problem.detail ?? `${fallback} (HTTP ${res.status})` }];
}
