// A form schema as accessible HTML, for every hosted page (the embed page on the server, the respond
// page in the browser): each field has its label (`for`), its help and its error message (`aria-describedby`),
// required fields say so, choice groups are fieldsets with a legend, a field the viewer may not
// change (the respond page's PREPARER fields) says why in a note. Every text is escaped by
// hono/html. The page's script (client/form-client.ts) reads the values, shows and hides fields by
// `visibleIf`, validates with the server's own code and writes errors into these elements.
import { html } from 'hono/html';
import { LIMITS } from '../../domain/forms/field-types';
import type { FormField, FormSchema } from '../../domain/forms/form-schema';
import { visibleFields } from '../../domain/forms/visibility';

type Html = ReturnType<typeof html>;

const INPUT_TYPES: Partial<Record<FormField['type'], string>> = { text: 'text', email: 'email', tel: 'tel', number: 'number', date: 'date' };
const AUTOCOMPLETE: Partial<Record<FormField['type'], string>> = { email: 'email', tel: 'tel' };

export const fieldId = (key: string) => `f-${key}`;
const helpId = (key: string) => `f-${key}-help`;
const errorId = (key: string) => `f-${key}-error`;

const lockedId = (key: string) => `f-${key}-locked`;

/** Why a field cannot be changed here; absent when it can. */
type LockNote = string | undefined;

const describedBy = (field: FormField, locked: LockNote) =>
  [field.help ? helpId(field.key) : '', locked ? lockedId(field.key) : '', errorId(field.key)].filter(Boolean).join(' ');

const requiredMark = (field: FormField) => (field.required ? html`<span class="required"> (required)</span>` : '');

const label = (field: FormField) => html`<label for="${fieldId(field.key)}">${field.label}${requiredMark(field)}</label>`;

const lockNote = (field: FormField, locked: LockNote) => (locked ? html`<p class="note" id="${lockedId(field.key)}">${locked}</p>` : '');

const help = (field: FormField) => (field.help ? html`<p class="help" id="${helpId(field.key)}">${field.help}</p>` : '');

const errorMarkup = (field: FormField) => html`<p class="error" id="${errorId(field.key)}" hidden></p>`;

const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

function control(field: FormField, value: unknown, locked: LockNote): Html {
  const common = { id: fieldId(field.key), name: field.key, described: describedBy(field, locked) };
  const error = (f: FormField) => html`${lockNote(f, locked)}${errorMarkup(f)}`;
  const placeholder = field.placeholder ?? '';
  switch (field.type) {
    case 'textarea':
      return html`${label(field)}${help(field)}<textarea id="${common.id}" name="${common.name}" rows="5" aria-describedby="${common.described}" ${field.required ? html`required` : ''} placeholder="${placeholder}">${text(value)}</textarea>${error(field)}`;
    case 'select':
      return html`${label(field)}${help(field)}<select id="${common.id}" name="${common.name}" aria-describedby="${common.described}" ${field.required ? html`required` : ''}>
<option value="">${field.placeholder ?? 'Choose…'}</option>
${(field.options ?? []).map((o) => html`<option value="${o.value}" ${o.value === value ? html`selected` : ''}>${o.label}</option>`)}
</select>${error(field)}`;
    case 'radio':
    case 'multiselect': {
      const type = field.type === 'radio' ? 'radio' : 'checkbox';
      const chosen = Array.isArray(value) ? value : [value];
      return html`<fieldset id="${common.id}" aria-describedby="${common.described}"><legend>${field.label}${requiredMark(field)}</legend>${help(field)}
${(field.options ?? []).map(
  (o, i) =>
    html`<div class="choice"><input type="${type}" id="${common.id}-${i}" name="${common.name}" value="${o.value}" ${chosen.includes(o.value) ? html`checked` : ''}><label for="${common.id}-${i}">${o.label}</label></div>`,
)}
</fieldset>${error(field)}`;
    }
    case 'checkbox':
      return html`<div class="choice"><input type="checkbox" id="${common.id}" name="${common.name}" value="true" aria-describedby="${common.described}" ${value === true ? html`checked` : ''}>${label(field)}</div>${help(field)}${error(field)}`;
    case 'file': {
      // The input is named by the field's label only; the second label is the visible button, hidden from the accessibility tree.
      const max = Math.min(field.validation?.maxItems ?? LIMITS.files, LIMITS.files);
      return html`<label for="${common.id}" id="${common.id}-label">${field.label}${requiredMark(field)}</label>${help(field)}<input type="file" class="file-input" id="${common.id}" name="${common.name}" ${max > 1 ? html`multiple` : ''} data-max-items="${max}" aria-labelledby="${common.id}-label" aria-describedby="${common.described} ${common.id}-status"><label for="${common.id}" class="file-button" aria-hidden="true">${max > 1 ? 'Choose files' : 'Choose a file'}</label>
<p class="files-label" id="${common.id}-files-label" hidden>Uploaded files</p><ul class="files" id="${common.id}-files" aria-labelledby="${common.id}-files-label"></ul><p class="status" id="${common.id}-status" role="status" aria-live="polite"></p>${error(field)}`;
    }
    default: {
      const type = INPUT_TYPES[field.type] ?? 'text';
      const number = field.type === 'number' ? html` inputmode="${field.validation?.integer ? 'numeric' : 'decimal'}" step="${field.validation?.integer ? '1' : 'any'}"` : '';
      return html`${label(field)}${help(field)}<input type="${type}" id="${common.id}" name="${common.name}" value="${text(value)}" aria-describedby="${common.described}" ${field.required ? html`required` : ''} placeholder="${placeholder}" autocomplete="${AUTOCOMPLETE[field.type] ?? 'off'}"${number}>${error(field)}`;
    }
  }
}

function fieldMarkup(field: FormField, shown: boolean, value: unknown, locked: LockNote): Html {
  if (field.type === 'content') {
    return html`<section class="content" data-field="${field.key}" ${shown ? '' : html`hidden`}><h2>${field.label}</h2>${field.help ? html`<p>${field.help}</p>` : ''}</section>`;
  }
  if (field.type === 'hidden') return html`<input type="hidden" id="${fieldId(field.key)}" name="${field.key}" value="${text(value)}" data-field="${field.key}">`;
  return html`<div class="field" data-field="${field.key}" data-type="${field.type}" ${shown ? '' : html`hidden`}>${control(field, value, locked)}</div>`;
}

export interface FormMarkupOptions {
  /** Fields shown but not editable here, each with the note that says why. */
  locked?: ReadonlyMap<string, string>;
}

/**
 * The form element: title (focusable, where the respond page puts focus once the form opens),
 * description, an error summary (focused when a submit is refused), the fields in schema order
 * (those `visibleIf` hides for `values` start hidden), the honeypot, the button; then the
 * thank-you block, whose heading is the page's one h1 once the form is hidden.
 */
export function formMarkup(schema: FormSchema, values: Readonly<Record<string, unknown>> = {}, options: FormMarkupOptions = {}): Html {
  const shown = new Set(visibleFields(schema, values).map((f) => f.key));
  return html`<form id="hosted-form" novalidate>
<h1 id="form-title" tabindex="-1">${schema.title}</h1>
${schema.description ? html`<p class="description">${schema.description}</p>` : ''}
<div id="error-summary" class="error-summary" role="alert" tabindex="-1" hidden><h2>There is a problem</h2><ul></ul></div>
${schema.fields.map((field) => fieldMarkup(field, shown.has(field.key), values[field.key], options.locked?.get(field.key)))}
<div class="trap" aria-hidden="true"><label for="f-_gotcha">Leave this empty</label><input type="text" id="f-_gotcha" name="_gotcha" tabindex="-1" autocomplete="off"></div>
<p class="form-status" id="form-status" role="status" aria-live="polite"></p>
<button type="submit">Send</button>
</form>
<div id="done" class="done" tabindex="-1" hidden><h1>Thank you</h1><p>Your answers were sent.</p></div>`;
}
