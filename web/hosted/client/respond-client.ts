/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The respond page's script (bundled for the browser by client-bundle.ts). The page cannot know the
// form before the recipient proves the address, so it starts at the code step and renders the form
// in the browser with the server's own renderer (form-markup.ts) once the access token opens it.
// The access token lives in sessionStorage (this tab only, gone with it); a 404 while holding one
// means it expired or was replaced, so the page forgets it and goes back to the code step.
// Once open: focus on the form's heading, the tab named after the form, each sender-set field
// saying why it cannot be changed, file fields uploading through the recipient's own routes
// (file-uploads.ts), and every answer autosaved.
import { z } from 'zod';
import type { FormSchema } from '../../../domain/forms/form-schema';
import { validateSubmission } from '../../../domain/forms/submission';
import { formMarkup } from '../form-markup';
import { fileUploads, type FileUploads, type Upload } from './file-uploads';
import { formFields, problemOf, serverErrors, type FormFields } from './form-fields';

/** What the respond page hands its script in `#page-data` (api/forms/respond-page-routes.ts). */
export interface RespondPageData {
  /** `/api/public/form-instances/<token>` */
  apiUrl: string;
  autosaveMs: number;
}

interface RecipientForm {
  schema: FormSchema;
  prefill: Record<string, unknown>;
  data: Record<string, unknown>;
  roles: Record<string, string>;
  state: string;
}

/** What a sender-set (PREPARER) field says under it. */
const LOCKED_NOTE = 'Filled in by the sender of this form; you cannot change it here.';

// The CSP allows no eval: zod must not try its compiled fast path.
z.config({ jitless: true });

const page = JSON.parse(document.getElementById('page-data')!.textContent!) as RespondPageData;
const codeStep = document.getElementById('code-step')!;
const codeForm = document.getElementById('code-form') as HTMLFormElement;
const codeInput = document.getElementById('code') as HTMLInputElement;
const codeError = document.getElementById('code-error')!;
const codeStatus = document.getElementById('code-status')!;
const sendCode = document.getElementById('send-code') as HTMLButtonElement;
const formStep = document.getElementById('form-step')!;

const storageKey = `respond:${page.apiUrl}`;
let accessToken = sessionStorage.getItem(storageKey);

function forget(message: string) {
  accessToken = null;
  sessionStorage.removeItem(storageKey);
  formStep.replaceChildren();
  formStep.hidden = true;
  codeStep.hidden = false;
  codeStatus.textContent = message;
  sendCode.focus();
}

const api = (path: string, init: RequestInit = {}) =>
  fetch(page.apiUrl + path, {
    ...init,
    headers: { ...(init.body ? { 'Content-Type': 'application/json' } : {}), ...(accessToken ? { Authorization: `Bearer ${accessToken}` } : {}) },
  });

// ---- the code step ----
function codeProblem(message: string) {
  codeError.textContent = message;
  codeError.hidden = false;
  codeInput.setAttribute('aria-invalid', 'true');
  codeInput.focus();
}

/** The seconds a 429 asks to wait (its Retry-After), when it names them. */
const retryAfter = (res: Response) => {
  const seconds = Number(res.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : undefined;
};

sendCode.addEventListener('click', async () => {
  sendCode.disabled = true;
  const res = await api('/otp', { method: 'POST' }).catch(() => undefined);
  sendCode.disabled = false;
  if (res?.status === 202) {
    codeStatus.textContent = 'If this link is still open, a code is on its way to the address the form was sent to. Enter it below.';
    codeInput.focus();
  } else if (res?.status === 429) {
    // The cooldown (or the request budget): nothing was sent now; an earlier code may still be on its way.
    const seconds = retryAfter(res);
    codeStatus.textContent =
      'No new code was sent: one was asked for a moment ago. Check your inbox and spam folder for it' +
      (seconds ? `, or ask again in ${seconds} seconds.` : ', or ask again in a minute.');
    codeInput.focus();
  } else codeStatus.textContent = res ? `No code was sent: ${await problemOf(res)}` : 'No code was sent: the connection failed. Try again.';
});

codeForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  codeError.hidden = true;
  codeInput.removeAttribute('aria-invalid');
  const code = codeInput.value.trim();
  if (!/^\d{6}$/.test(code)) return codeProblem('Enter the 6 digits of the code from the e-mail.');
  const res = await api('/verify', { method: 'POST', body: JSON.stringify({ code }) }).catch(() => undefined);
  if (!res) return codeProblem('The code was not checked: the connection failed. Try again.');
  if (res.status === 404) return codeProblem('This code did not open the form. Check it, or ask for a new code.');
  if (res.status !== 200) return codeProblem(await problemOf(res));
  accessToken = ((await res.json()) as { accessToken: string }).accessToken;
  sessionStorage.setItem(storageKey, accessToken);
  codeInput.value = '';
  await openForm(true);
});

// ---- the form ----
function showDone() {
  formStep.querySelector('form')?.setAttribute('hidden', '');
  const done = document.getElementById('done')!;
  done.hidden = false;
  done.focus();
}

/** The recipient's uploads, by the field whose saved value names them. */
async function savedFiles(schema: FormSchema, values: Record<string, unknown>): Promise<Record<string, Upload[]>> {
  if (!schema.fields.some((f) => f.type === 'file')) return {};
  const res = await api('/documents').catch(() => undefined);
  // Without the list the saved ids are kept under a plain name: the next autosave must not drop them.
  const listed = res?.status === 200 ? ((await res.json()) as { items: Array<{ id: string; filename: string }> }).items : undefined;
  const names = new Map(listed?.map((d) => [d.id, d.filename]));
  const held: Record<string, Upload[]> = {};
  for (const f of schema.fields.filter((field) => field.type === 'file')) {
    const ids = Array.isArray(values[f.key]) ? (values[f.key] as unknown[]) : [];
    held[f.key] = ids
      .filter((id): id is string => typeof id === 'string' && (!listed || names.has(id)))
      .map((id) => ({ id, name: names.get(id) ?? 'Saved file' }));
  }
  return held;
}

/** `focus`: the code was just accepted, so the recipient is taken to the form's heading. */
async function openForm(focus = false) {
  const res = await api('').catch(() => undefined);
  if (!res) return forget('The form could not be loaded: the connection failed. Try again.');
  if (res.status !== 200) return forget('Ask for a new code to open the form.');
  const view = (await res.json()) as RecipientForm;
  const values = { ...view.prefill, ...view.data };
  const locked = new Map(view.schema.fields.filter((f) => view.roles[f.key] === 'PREPARER').map((f) => [f.key, LOCKED_NOTE]));
  const sent = view.state === 'SUBMITTED' || view.state === 'PROCESSED';
  // Fetched before the form is shown: from the moment it is on screen to the moment its handlers
  // are on, a Send would submit it the browser's way, past the page's checks.
  const saved = sent ? {} : await savedFiles(view.schema, values);
  // formMarkup escapes every schema text (hono/html), so this markup carries no script or handler.
  formStep.innerHTML = String(formMarkup(view.schema, values, { locked }));
  document.title = view.schema.title;
  codeStep.hidden = true;
  formStep.hidden = false;
  if (sent) return showDone();
  const files = fileUploads(view.schema, {
    upload: (body) => fetch(`${page.apiUrl}/documents`, { method: 'POST', headers: { Authorization: `Bearer ${accessToken}` }, body }),
    remove: (id) => api(`/documents/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  });
  const form = formStep.querySelector('form')!;
  // A sender-set file field keeps the sender's value as it is.
  const filesOf = (key: string) => (locked.has(key) ? ((values[key] as string[] | undefined) ?? []) : files.filesOf(key));
  const fields = formFields(view.schema, form, document.getElementById('error-summary')!, { locked: new Set(locked.keys()), filesOf });
  files.restore(saved);
  wireForm(view.schema, fields, files);
  if (focus) document.getElementById('form-title')!.focus();
}

function wireForm(schema: FormSchema, fields: FormFields, files: FileUploads) {
  const form = formStep.querySelector('form')!;
  const status = document.getElementById('form-status')!;
  const button = form.querySelector('button[type=submit]') as HTMLButtonElement;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let sending = false;

  /** The answers as the server should keep them: only what the recipient may see and set. */
  const answers = () => fields.readValues();

  // One save at a time: two in flight could commit out of order and leave the older answers saved.
  let saving = false;
  let saveAgain = false;

  async function autosave() {
    timer = undefined;
    if (sending) return;
    if (saving) {
      saveAgain = true;
      return;
    }
    saving = true;
    try {
      const res = await api('', { method: 'PATCH', body: JSON.stringify({ data: answers() }) }).catch(() => undefined);
      if (!res) status.textContent = 'Not saved: the connection failed. Your answers are still here.';
      else if (res.status === 200) status.textContent = 'Saved.';
      else if (res.status === 404) forget('Your session ended. Ask for a new code to go on; your saved answers are kept.');
      else if (res.status === 409) status.textContent = 'This form was already sent.';
      else fields.showErrors(await serverErrors(res, 'Not saved'));
    } finally {
      saving = false;
    }
    if (saveAgain) {
      saveAgain = false;
      await autosave();
    }
  }

  const onEdit = () => {
    fields.applyVisibility();
    clearTimeout(timer);
    timer = setTimeout(() => void autosave(), page.autosaveMs);
  };
  form.addEventListener('input', onEdit);
  form.addEventListener('change', onEdit);
  files.wire(form, fields.showErrors, (key) => {
    fields.recheckField(key);
    onEdit();
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (sending) return;
    if (files.pending() > 0) {
      status.textContent = 'Wait until the files are uploaded.';
      return;
    }
    clearTimeout(timer);
    const checked = validateSubmission(schema, answers());
    if (!checked.ok) return fields.showErrors(checked.errors);
    fields.clearErrors();
    sending = true;
    button.disabled = true;
    status.textContent = 'Sending…';
    try {
      const res = await api('/submit', { method: 'POST', body: JSON.stringify({ data: checked.data }) });
      if (res.status === 200) return showDone();
      if (res.status === 404) return forget('Your session ended. Ask for a new code, then send the form again.');
      fields.showErrors(await serverErrors(res, 'The form was not sent'));
    } catch {
      fields.showErrors([{ path: '', message: 'The form was not sent: the connection failed. Try again.' }]);
    } finally {
      sending = false;
      button.disabled = false;
      if (status.textContent === 'Sending…') status.textContent = '';
    }
  });
  fields.applyVisibility();
}

if (accessToken) void openForm();
