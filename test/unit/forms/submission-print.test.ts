// The print view of a submission (spec Forms 7): every field type readable, text escaped, nothing external.
import { describe, expect, it } from 'vitest';
import type { FormSchema } from '../../../domain/forms/form-schema';
import { defaultPdfFilename } from '../../../services/forms/render-submission-pdf';
import { escapeHtml, submissionPrintHtml } from '../../../services/forms/submission-print';

const DOC = '6f1c2a9e-0b7d-4c55-9a64-1f2e3d4c5b6a';
const schema: FormSchema = {
  title: 'Intake',
  description: 'Please answer <all>',
  fields: [
    { key: 'name', type: 'text', label: 'Full name' },
    { key: 'notes', type: 'textarea', label: 'Notes' },
    { key: 'email', type: 'email', label: 'E-mail' },
    { key: 'phone', type: 'tel', label: 'Phone' },
    { key: 'age', type: 'number', label: 'Age' },
    { key: 'born', type: 'date', label: 'Born' },
    { key: 'size', type: 'select', label: 'Size', options: [{ value: 's', label: 'Small' }, { value: 'l', label: 'Large' }] },
    { key: 'tier', type: 'radio', label: 'Tier', options: [{ value: 'a', label: 'Gold' }] },
    { key: 'colours', type: 'multiselect', label: 'Colours', options: [{ value: 'r', label: 'Red' }, { value: 'g', label: 'Green' }] },
    { key: 'agree', type: 'checkbox', label: 'Agree' },
    { key: 'news', type: 'checkbox', label: 'Newsletter' },
    { key: 'files', type: 'file', label: 'Attachments' },
    { key: 'ref', type: 'hidden', label: 'Campaign' },
    { key: 'thanks', type: 'content', label: 'Thank you', help: 'We will be in touch.' },
    { key: 'why', type: 'text', label: 'Why large', visibleIf: { field: 'size', equals: 'l' } },
    { key: 'blank', type: 'text', label: 'Left blank' },
  ],
};
const data = {
  name: 'Ada <script>document.title="pwned"</script>',
  notes: 'line 1\nline 2',
  email: 'ada@example.org',
  phone: '+44 20 7946 0000',
  age: 36,
  born: '1815-12-10',
  size: 's',
  tier: 'a',
  colours: ['r', 'g'],
  agree: true,
  files: [DOC],
  ref: 'utm-secret',
  why: 'hidden by the condition',
};
const html = (extra: Partial<Parameters<typeof submissionPrintHtml>[0]> = {}) =>
  submissionPrintHtml({ title: 'Intake & more', code: 'FRM1', version: 3, submittedAt: new Date('2026-05-01T10:00:00Z'), schema, data, ...extra });

describe('submission print view', () => {
  it('prints every field type readably: labels, values, option labels, lists, yes/no', () => {
    const out = html();
    for (const s of ['Full name', 'Notes', 'line 1\nline 2', 'ada@example.org', '+44 20 7946 0000', '36', '1815-12-10', 'Small', 'Gold']) {
      expect(out).toContain(s);
    }
    expect(out).toContain('<ul><li>Red</li><li>Green</li></ul>');
    expect(out).toMatch(/Agree<\/dt><dd>Yes</);
    expect(out).toMatch(/Newsletter<\/dt><dd>No</);
    expect(out).toMatch(/Left blank<\/dt><dd><span class="empty">Not answered/);
    expect(out).toContain('Form FRM1 · version 3 · submitted 2026-05-01T10:00:00.000Z');
  });

  it('content fields print as text; hidden fields and fields hidden by visibleIf are omitted', () => {
    const out = html();
    expect(out).toContain('<h2>Thank you</h2><p>We will be in touch.</p>');
    expect(out).not.toContain('Campaign');
    expect(out).not.toContain('utm-secret');
    expect(out).not.toContain('Why large');
  });

  it('file fields list document ids, with filenames when given', () => {
    expect(html()).toContain(DOC);
    expect(html({ fileNames: { [DOC]: 'passport <1>.pdf' } })).toContain(`passport &lt;1&gt;.pdf <span class="doc-id">(${DOC})</span>`);
  });

  it('escapes every text: a <script> in data is text, never markup', () => {
    const out = html();
    expect(out).toContain('Ada &lt;script&gt;document.title=&quot;pwned&quot;&lt;/script&gt;');
    expect(out).not.toContain('<script>document.title');
    expect(out).toContain('<title>Intake &amp; more</title>');
    expect(out).toContain('Please answer &lt;all&gt;');
    // labels and option labels too
    const evil = submissionPrintHtml({
      title: 't', code: 'c', version: 1, submittedAt: new Date(0),
      schema: { title: 't', fields: [{ key: 'a', type: 'select', label: '<img src=x>', options: [{ value: 'v', label: '<b>bold</b>' }] }] },
      data: { a: 'v' },
    });
    expect(evil).toContain('&lt;img src=x&gt;');
    expect(evil).toContain('&lt;b&gt;bold&lt;/b&gt;');
    expect(escapeHtml(`<>&"'`)).toBe('&lt;&gt;&amp;&quot;&#39;');
  });

  it('references nothing external and allows only its own nonce in a strict CSP', () => {
    const out = html();
    expect(out).not.toMatch(/\b(src|href)\s*=/i);
    expect(out).not.toMatch(/https?:\/\//);
    const csp = /content="(default-src 'none';[^"]*)"/.exec(out)?.[1];
    expect(csp).toBeDefined();
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp!)?.[1];
    expect(out.match(/<script\b[^>]*>/g)).toEqual([`<script nonce="${nonce}">`]);
    expect(out).toContain("setAttribute('data-ready', '1')");
    expect(html()).not.toContain(`nonce-${nonce}`); // a fresh nonce per document
  });

  it('values of unexpected shapes still print (the view never refuses a submission)', () => {
    const out = submissionPrintHtml({
      title: 't', code: 'c', version: 1, submittedAt: new Date(0),
      schema: { title: 't', fields: [{ key: 'a', type: 'text', label: 'A' }, { key: 'b', type: 'multiselect', label: 'B', options: [] }] },
      data: { a: { nested: '<x>' }, b: 'single' },
    });
    expect(out).toContain('{&quot;nested&quot;:&quot;&lt;x&gt;&quot;}');
    expect(out).toContain('<li>single</li>');
  });

  it('default filename: code and version, safe characters only', () => {
    expect(defaultPdfFilename('FRMK7QX05MAR26', 2)).toBe('FRMK7QX05MAR26-v2-submission.pdf');
    expect(defaultPdfFilename('a/../b c', 1)).toBe('a-..-b-c-v1-submission.pdf');
  });
});
