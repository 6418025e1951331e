/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The signing page's controls, apart from the flow that drives them (sign-client.ts): the field
// boxes' placeholder text, the merged variables, the TEXT inputs, the signature and initials
// panels (drawn or typed), and the error summary.
import { createPad, type Pad } from './sign-pads';
import type { SignField } from './sign-pages';

export const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

export function boxText(field: SignField): string {
  switch (field.type) {
    case 'SIGNATURE':
      return 'Sign here';
    case 'INITIALS':
      return 'Initials';
    case 'DATE':
      // The sealed date is the day the signature is recorded, in the campaign's time zone.
      return 'Date of signing';
    case 'NAME':
      return 'Your name';
    case 'TEXT':
      return 'Text';
  }
}

/** The merged variables by their labels (the schema's order), as a description list. */
export function showVariables(variables: { key: string; label: string; value: string }[]) {
  const list = $('variables');
  const entries = variables.filter((v) => v.value !== '');
  list.replaceChildren(
    ...entries.flatMap((v) => {
      const dt = document.createElement('dt');
      dt.textContent = v.label;
      const dd = document.createElement('dd');
      dd.textContent = v.value;
      return [dt, dd];
    }),
  );
  list.hidden = entries.length === 0;
}

export function textFieldInputs(fields: SignField[]): Map<string, HTMLInputElement> {
  const inputs = new Map<string, HTMLInputElement>();
  const holder = $('text-fields');
  fields.forEach((field, i) => {
    const wrap = document.createElement('div');
    wrap.className = 'field';
    const label = document.createElement('label');
    label.htmlFor = `text-${i}`;
    label.textContent = `Text ${i + 1} (page ${field.page})`;
    const input = document.createElement('input');
    input.type = 'text';
    input.id = `text-${i}`;
    input.maxLength = 500;
    wrap.append(label, input);
    holder.append(wrap);
    inputs.set(field.id, input);
  });
  $('text-panel').hidden = fields.length === 0;
  return inputs;
}

export interface MarkPanel {
  mode(): 'draw' | 'alt';
  pad: Pad;
  /** What the field boxes show: the drawn ink or the typed text; null while nothing is given. */
  preview(): { image?: string; text?: string } | null;
}

export function markPanel(id: 'signature' | 'initials', typed: () => string, onChange: () => void): MarkPanel {
  const draw = $(`${id}-draw`);
  const alt = $(`${id}-alt`);
  const pad = createPad($<HTMLCanvasElement>(`${id}-pad`), onChange);
  const mode = () => ($<HTMLInputElement>(`${id}-mode-alt`).checked ? 'alt' : 'draw');
  for (const radio of document.querySelectorAll<HTMLInputElement>(`input[name="${id}-mode"]`))
    radio.addEventListener('change', () => {
      draw.hidden = mode() !== 'draw';
      alt.hidden = mode() !== 'alt';
      onChange();
    });
  $(`${id}-clear`).addEventListener('click', () => pad.clear());
  return {
    mode,
    pad,
    preview() {
      if (mode() === 'draw') {
        const image = pad.dataUrl();
        return image ? { image } : null;
      }
      const text = typed();
      return id === 'initials' ? { text: 'From your name' } : text ? { text } : null;
    },
  };
}

/** One message per problem, each on its control (aria-invalid, its error text) and in the focused summary. */
export function showErrors(problems: { message: string; control?: HTMLElement; errorEl?: HTMLElement }[]) {
  for (const el of document.querySelectorAll('#ceremony [aria-invalid]')) el.removeAttribute('aria-invalid');
  for (const id of ['signature-error', 'initials-error', 'consent-error']) $(id).hidden = true;
  const summary = $('error-summary');
  if (problems.length === 0) {
    summary.hidden = true;
    return;
  }
  const heading = document.createElement('p');
  heading.textContent = problems.length === 1 ? 'There is a problem:' : 'There are problems:';
  const list = document.createElement('ul');
  for (const p of problems) {
    const item = document.createElement('li');
    if (p.control) {
      const link = document.createElement('a');
      link.href = `#${p.control.id}`;
      link.textContent = p.message;
      link.addEventListener('click', (e) => {
        e.preventDefault();
        p.control!.focus();
      });
      item.append(link);
      p.control.setAttribute('aria-invalid', 'true');
    } else item.textContent = p.message;
    if (p.errorEl) {
      p.errorEl.textContent = p.message;
      p.errorEl.hidden = false;
    }
    list.append(item);
  }
  summary.replaceChildren(heading, list);
  summary.hidden = false;
  summary.focus();
}
