// The print view of a form submission: one self-contained HTML document that headless Chromium
// prints to the submission PDF (integrations/chromium/printer.ts). Every text is HTML-escaped;
// nothing is fetched (no fonts, images or styles from outside: `default-src 'none'`); the only
// script is the document's own nonce'd one-liner that sets the ready flag once fonts are laid out.
// Fields are printed in schema order as the respondent saw them: fields hidden by `visibleIf`
// and `hidden` fields are left out, `content` fields print their label and help as text.
import { randomBytes } from 'node:crypto';
import type { FormField, FormSchema } from '../../domain/forms/form-schema';
import { visibleFields } from '../../domain/forms/visibility';

export interface SubmissionPrintInput {
  /** The form's title (the definition's name or the schema's title). */
  title: string;
  /** The definition code and version the submission answered. */
  code: string;
  version: number;
  submittedAt: Date;
  schema: FormSchema;
  data: Record<string, unknown>;
  /** Filenames of attached documents by id, when the caller knows them (file fields print them). */
  fileNames?: Record<string, string>;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for element content and quoted attribute values. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);

const NOT_ANSWERED = '<span class="empty">Not answered</span>';

const isAbsent = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** Any value as text, whatever its shape (the print view never refuses a submission). */
function plain(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}

function optionLabel(field: FormField, value: unknown): string {
  const option = field.options?.find((o) => o.value === value);
  return option ? option.label : plain(value);
}

const list = (items: string[]) => `<ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul>`;

function valueHtml(field: FormField, value: unknown, fileNames: Record<string, string>): string {
  if (field.type === 'checkbox') return value === true ? 'Yes' : 'No';
  if (isAbsent(value)) return NOT_ANSWERED;
  switch (field.type) {
    case 'multiselect':
      return list((Array.isArray(value) ? value : [value]).map((v) => escapeHtml(optionLabel(field, v))));
    case 'select':
    case 'radio':
      return escapeHtml(optionLabel(field, value));
    case 'file':
      return list(
        (Array.isArray(value) ? value : [value]).map((v) => {
          const id = plain(v);
          const name = Object.hasOwn(fileNames, id) ? fileNames[id] : undefined;
          return name ? `${escapeHtml(name)} <span class="doc-id">(${escapeHtml(id)})</span>` : `<span class="doc-id">${escapeHtml(id)}</span>`;
        }),
      );
    case 'textarea':
      return `<div class="multiline">${escapeHtml(plain(value))}</div>`;
    default:
      return escapeHtml(plain(value));
  }
}

function fieldHtml(field: FormField, data: Record<string, unknown>, fileNames: Record<string, string>): string {
  if (field.type === 'content') {
    const help = field.help ? `<p>${escapeHtml(field.help)}</p>` : '';
    return `<section class="content"><h2>${escapeHtml(field.label)}</h2>${help}</section>`;
  }
  const value = Object.hasOwn(data, field.key) ? data[field.key] : undefined;
  return `<div class="field"><dt>${escapeHtml(field.label)}</dt><dd>${valueHtml(field, value, fileNames)}</dd></div>`;
}

const STYLE = `
  @page { size: A4; }
  html { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 10.5pt; color: #111; }
  body { margin: 0; }
  header { border-bottom: 2px solid #333; margin-bottom: 12pt; padding-bottom: 6pt; }
  h1 { font-size: 16pt; margin: 0 0 4pt; }
  .meta { color: #444; font-size: 9pt; }
  .description { margin: 0 0 10pt; color: #333; }
  dl { margin: 0; }
  .field { break-inside: avoid; padding: 5pt 0; border-bottom: 1px solid #ddd; }
  dt { font-weight: bold; margin-bottom: 2pt; }
  dd { margin: 0 0 0 10pt; overflow-wrap: anywhere; }
  dd ul { margin: 0; padding-left: 14pt; }
  .multiline { white-space: pre-wrap; }
  .empty { color: #888; font-style: italic; }
  .doc-id { color: #555; font-size: 8.5pt; }
  .content { break-inside: avoid; padding: 6pt 0; }
  .content h2 { font-size: 11.5pt; margin: 0 0 2pt; }
  .content p { margin: 0; }
`;

/** The print view as one HTML document, with the nonce its CSP allows for its style and ready script. */
export function submissionPrintHtml(input: SubmissionPrintInput): string {
  const nonce = randomBytes(16).toString('base64');
  const fileNames = input.fileNames ?? {};
  const fields = visibleFields(input.schema, input.data)
    .filter((f) => f.type !== 'hidden')
    .map((f) => fieldHtml(f, input.data, fileNames))
    .join('\n');
  const description = input.schema.description ? `<p class="description">${escapeHtml(input.schema.description)}</p>` : '';
  const csp = `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; img-src data:; font-src data:; base-uri 'none'; form-action 'none'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>${escapeHtml(input.title)}</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(input.title)}</h1>
<div class="meta">Form ${escapeHtml(input.code)} · version ${escapeHtml(String(input.version))} · submitted ${escapeHtml(input.submittedAt.toISOString())}</div>
</header>
${description}
<dl>
${fields}
</dl>
<script nonce="${nonce}">document.fonts.ready.then(function () { document.documentElement.setAttribute('data-ready', '1'); });</script>
</body>
</html>
`;
}
