/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The embed page's script (bundled for the browser by client-bundle.ts). It validates with the
// server's own validateSubmission and visibleFields, uploads file fields through the public
// documents routes of the session (file-uploads.ts), submits, links the uploads, and talks to the
// embedding page only through the channel the fragment names (`#nonce=…&origin=…`): messages
// (ready, resize, submitted) go to that exact origin, and only when it is one of the form's
// allowed origins.
import { z } from 'zod';
import type { FormSchema } from '../../../domain/forms/form-schema';
import { validateSubmission } from '../../../domain/forms/submission';
import { fileUploads } from './file-uploads';
import { formFields, serverErrors } from './form-fields';

/** What the page hands its script in `#page-data` (api/forms/embed-page-routes.ts). */
export interface HostedFormData {
  token: string;
  schema: FormSchema;
  allowedOrigins: string[];
  submitUrl: string;
  documentsUrl: string;
}

// The CSP allows no eval: zod must not try its compiled fast path.
z.config({ jitless: true });

const data = JSON.parse(document.getElementById('page-data')!.textContent!) as HostedFormData;
const schema = data.schema;
const form = document.getElementById('hosted-form') as HTMLFormElement;
const summary = document.getElementById('error-summary') as HTMLElement;
const formStatus = document.getElementById('form-status') as HTMLElement;

const randomId = (bytes: number) => {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...raw)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};
/** The session's processRef: 144 random bits, minted here, sent with every upload and the submit. */
const processRef = `emb_${randomId(18)}`;

// ---- the channel to the embedding page ----
const fragment = new URLSearchParams(location.hash.slice(1));
const channelNonce = fragment.get('nonce') ?? '';
const parentOrigin = fragment.get('origin') ?? '';
const channelOpen = window.parent !== window && /^[A-Za-z0-9_-]{16,128}$/.test(channelNonce) && data.allowedOrigins.includes(parentOrigin);

function post(message: { type: 'ready' } | { type: 'resize'; height: number } | { type: 'submitted'; instanceId: string }) {
  if (channelOpen) window.parent.postMessage({ ...message, nonce: channelNonce }, parentOrigin);
}

let lastHeight = 0;
const reportHeight = () => {
  const height = Math.ceil(document.body.getBoundingClientRect().height);
  if (height !== lastHeight) post({ type: 'resize', height: (lastHeight = height) });
};
new ResizeObserver(reportHeight).observe(document.body);

// ---- values, errors and files ----
const sessionHeaders = () => ({ 'X-Embed-Token': data.token, 'X-Embed-Session': processRef });
const files = fileUploads(schema, {
  upload: (body) => fetch(data.documentsUrl, { method: 'POST', headers: sessionHeaders(), body }),
  remove: (id) => fetch(`${data.documentsUrl}/${encodeURIComponent(id)}`, { method: 'DELETE', headers: sessionHeaders() }),
});
const { readValues, applyVisibility, clearErrors, showErrors, recheckField } = formFields(schema, form, summary, { filesOf: files.filesOf });
files.wire(form, showErrors, recheckField);

// ---- submit ----
let sending = false;
form.addEventListener('input', applyVisibility);
form.addEventListener('change', applyVisibility);
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (sending) return;
  if (files.pending() > 0) {
    formStatus.textContent = 'Wait until the files are uploaded.';
    return;
  }
  const checked = validateSubmission(schema, readValues());
  if (!checked.ok) {
    showErrors(checked.errors);
    return;
  }
  clearErrors();
  sending = true;
  const button = form.querySelector('button[type=submit]') as HTMLButtonElement;
  button.disabled = true;
  formStatus.textContent = 'Sending…';
  try {
    const gotcha = (document.getElementById('f-_gotcha') as HTMLInputElement).value;
    const res = await fetch(data.submitUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ data: checked.data, processRef, ...(gotcha ? { _gotcha: gotcha } : {}) }),
    });
    if (res.status === 201) {
      const { id } = (await res.json()) as { id: string };
      if (files.any()) await link(id);
      form.hidden = true;
      const done = document.getElementById('done')!;
      done.hidden = false;
      done.focus();
      post({ type: 'submitted', instanceId: id });
      return;
    }
    showErrors(await serverErrors(res, 'The form was not sent'));
  } catch {
    showErrors([{ path: '', message: 'The form was not sent: the connection failed. Try again.' }]);
  } finally {
    sending = false;
    button.disabled = false;
    formStatus.textContent = '';
  }
});

/** Binds the uploads to the new instance; retried once, since the submission already counts. */
async function link(instanceId: string) {
  for (let attempt = 0; attempt < 2; attempt++) {
    const res = await fetch(`${data.documentsUrl}/link`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Embed-Token': data.token },
      body: JSON.stringify({ processRef, instanceId }),
    }).catch(() => undefined);
    if (res && res.status < 500) return;
  }
}

applyVisibility();
post({ type: 'ready' });
reportHeight();
