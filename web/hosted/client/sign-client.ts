/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The hosted signing page's script (bundled for the browser by client-bundle.ts). It drives
// /api/public/sign-instance/{token}: the session (or the e-mail code first), the pages with this
// recipient's fields, a guided walk through them, the signature and initials (drawn or typed),
// the TEXT entries, the consent, Finish. The access token of an EMAIL_OTP session lives in
// sessionStorage (this tab only); a refusal while holding one forgets it and asks the API again.
import type { RecipientState } from '../../../domain/signatures/instance-states';
import { $, boxText, markPanel, showErrors, showVariables, textFieldInputs, type MarkPanel } from './sign-controls';
import { markOf, renderPages, type FieldType, type SignField } from './sign-pages';
import { zoomControls } from './sign-zoom';

/** What the signing page hands its script in `#page-data` (api/signatures/sign-page-routes.ts). */
export interface SignPageData {
  /** `/api/public/sign-instance/<token>` */
  apiUrl: string;
  /** pdf.js's worker on our origin, by content hash. */
  workerSrc: string;
  /** pdf.js's standard fonts, CMaps, wasm and ICC profiles on our origin (web/hosted/pdf-assets.ts). */
  assetBase: string;
  /** The recipient verifies by e-mail code: the API's session is one 404 until a code is verified. */
  codeFirst: boolean;
}

/** The session as the API's SessionView (api/signatures/instance-schemas.ts) gives it, in what this script reads. */
interface Session {
  pdfBase64: string;
  fields: SignField[];
  variableList?: { key: string; label: string; value: string }[];
  signer: { id: string; label: string; name?: string };
  status: RecipientState;
  routing?: { mode?: string; order?: unknown; groups?: unknown };
}

interface Problem {
  status: number;
  detail: string;
  errors: string[];
}

const page = JSON.parse(document.getElementById('page-data')!.textContent!) as SignPageData;
const storageKey = `sign:${page.apiUrl}`;
let accessToken = sessionStorage.getItem(storageKey);

const api = (path: string, body?: unknown) =>
  fetch(page.apiUrl + path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...(accessToken ? { Authorization: `Bearer ${accessToken}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function problemOf(res: Response): Promise<Problem> {
  const body = (await res.json().catch(() => ({}))) as { detail?: string; title?: string; errors?: unknown };
  const errors = Array.isArray(body.errors)
    ? body.errors.map((e) => (typeof e === 'string' ? e : [e?.path, e?.message ?? e?.detail].filter(Boolean).join(': '))).filter((e) => e.length > 0)
    : [];
  return { status: res.status, detail: body.detail ?? body.title ?? `The service answered ${res.status}.`, errors };
}

const SECTIONS = ['loading', 'otp-step', 'unavailable', 'ceremony', 'done'] as const;
function show(section: (typeof SECTIONS)[number], focus?: HTMLElement) {
  for (const id of SECTIONS) $(id).hidden = id !== section;
  focus?.focus();
}

function forgetAccess() {
  accessToken = null;
  sessionStorage.removeItem(storageKey);
}

// ---- opening: the session, or the code step ----

/** Set once the ceremony is on the page: a renewed session (a new code) goes back to it as it was left. */
let ceremonyBuilt = false;

async function open() {
  if (page.codeFirst && !accessToken) return show('otp-step', $('send-code'));
  const res = await api('').catch(() => null);
  if (res?.ok && ceremonyBuilt) return show('ceremony', $('finish'));
  if (res?.ok) {
    const session = (await res.json()) as Session;
    // The link stays open until the last signer: a reload after signing (or after an answer that
    // was lost on the way) is told so, instead of being walked through the ceremony again.
    if (session.status === 'R_SIGNED') return showSigned(true);
    return ceremony(session);
  }
  if (res?.status === 404 && accessToken) {
    forgetAccess();
    return open();
  }
  if (res?.status === 404) return show('unavailable', $('unavailable-title'));
  $('loading').textContent = res ? (await problemOf(res)).detail : 'The document could not be loaded. Check the connection and reload the page.';
}

function showSigned(before: boolean) {
  $('done-text').textContent = before
    ? 'You have signed. The completed document will be sent when everyone has signed. You can close this page.'
    : 'Thank you: your signature is recorded. The completed document will be sent to you by e-mail when everyone has signed. You can close this page.';
  show('done', $('done-title'));
}

/** A button that stays disabled while its request is in flight: repeated clicks would only meet the rate limit. */
async function whileBusy<T>(button: HTMLButtonElement, work: () => Promise<T>): Promise<T> {
  button.disabled = true;
  try {
    return await work();
  } finally {
    button.disabled = false;
  }
}

$('send-code').addEventListener('click', () =>
  whileBusy($<HTMLButtonElement>('send-code'), async () => {
    const res = await api('/otp', {}).catch(() => null);
    $('code-status').textContent = res?.ok
      ? 'If this link is still open, a code is on its way to your e-mail.'
      : `No code was sent: ${res ? (await problemOf(res)).detail : 'the service could not be reached. Check the connection and try again.'}`;
    $('code').focus();
  }),
);

$('code-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $<HTMLInputElement>('code');
  const error = $('code-error');
  const refuse = (message: string) => {
    error.textContent = message;
    error.hidden = false;
    input.setAttribute('aria-invalid', 'true');
    input.focus();
  };
  const code = input.value.trim();
  if (!/^\d{6}$/.test(code)) return refuse('Enter the 6-digit code from the e-mail.');
  return whileBusy($<HTMLButtonElement>('open-document'), async () => {
    const res = await api('/verify', { code }).catch(() => null);
    if (!res) return refuse('The code could not be checked: the service could not be reached. Check the connection and try again.');
    if (!res.ok) return refuse(`That code did not open the document: ${(await problemOf(res)).detail}`);
    accessToken = ((await res.json()) as { accessToken: string }).accessToken;
    sessionStorage.setItem(storageKey, accessToken);
    error.hidden = true;
    input.value = '';
    input.removeAttribute('aria-invalid');
    show('loading');
    return open();
  });
});

// ---- the ceremony ----

const TYPE_NAMES: Record<FieldType, string> = { SIGNATURE: 'Signature', INITIALS: 'Initials', DATE: 'Date', NAME: 'Name', TEXT: 'Text' };
const READ_ONLY = new Set<FieldType>(['DATE', 'NAME']);

async function ceremony(session: Session) {
  ceremonyBuilt = true;
  const fields = session.fields
    .filter((f) => f.signerId === session.signer.id)
    .sort((a, b) => a.page - b.page || a.y - b.y || a.x - b.x);
  $('signer').textContent = session.signer.name ? `Signing as: ${session.signer.name} (${session.signer.label})` : `Signing as: ${session.signer.label}`;
  const routing = session.routing;
  $('routing').textContent =
    routing?.mode === 'sequential' && typeof routing.order === 'number' && typeof routing.groups === 'number'
      ? `Signing order: you are step ${routing.order} of ${routing.groups}.`
      : '';
  showVariables(session.variableList ?? []);
  const has = (type: FieldType) => fields.some((f) => f.type === type);
  $('signature-panel').hidden = !has('SIGNATURE');
  $('initials-panel').hidden = !has('INITIALS');
  // The page opens at its top: the heading, who signs, the order, and the first field one tap away.
  show('ceremony', $('page-title'));
  window.scrollTo(0, 0);

  const textInputs = textFieldInputs(fields.filter((f) => f.type === 'TEXT'));
  let boxes = new Map<string, HTMLButtonElement>();
  const signature = markPanel('signature', () => $<HTMLInputElement>('typed-name').value.trim(), refreshBoxes);
  const initials = markPanel('initials', () => '', refreshBoxes);
  $('typed-name').addEventListener('input', refreshBoxes);
  for (const input of textInputs.values()) input.addEventListener('input', refreshBoxes);

  function refreshBoxes() {
    for (const field of fields) {
      const box = boxes.get(field.id);
      if (box) refreshBox(field, box);
    }
  }

  function refreshBox(field: SignField, box: HTMLButtonElement) {
    const mark = field.type === 'SIGNATURE' ? signature : field.type === 'INITIALS' ? initials : null;
    const preview = mark?.preview() ?? null;
    const text = field.type === 'TEXT' ? textInputs.get(field.id)!.value.trim() : '';
    const drawn = markOf(box);
    drawn.replaceChildren();
    if (preview?.image) {
      const img = document.createElement('img');
      img.src = preview.image;
      img.alt = '';
      drawn.append(img);
    } else {
      drawn.append(preview?.text ?? (text || boxText(field)));
    }
    box.classList.toggle('done', !!preview || text.length > 0);
    // The name starts with what the box shows (WCAG 2.5.3, label in name), then what it is.
    const shown = drawn.textContent?.trim();
    box.setAttribute('aria-label', `${shown ? `${shown}: ` : ''}${TYPE_NAMES[field.type].toLowerCase()} field on page ${field.page}`);
  }

  // Busy while pages are drawn (a box is named from its first moment: a screen reader, or a test,
  // may meet it before the last page is drawn); done once every box is named and the walk is set.
  $('pages').setAttribute('aria-busy', 'true');
  try {
    const rendered = await renderPages($('pages'), session.pdfBase64, page, fields, (field, box) => {
      if (READ_ONLY.has(field.type)) box.classList.add('readonly');
      refreshBox(field, box);
    });
    boxes = rendered.boxes;
    zoomControls($('pages'), rendered.redraw);
  } catch {
    // Nobody signs what they could not see: no ceremony without the pages.
    $('pages').removeAttribute('aria-busy');
    $('loading').textContent = 'The document could not be displayed in this browser. Reload the page, or open the link in another browser.';
    return show('loading', $('loading'));
  }
  const steps = fields.filter((f) => boxes.has(f.id));
  let current = -1;

  function goTo(index: number, focusBox = true) {
    current = index;
    steps.forEach((f, i) => boxes.get(f.id)!.classList.toggle('current', i === index));
    const field = steps[index]!;
    const readOnlyNote = READ_ONLY.has(field.type) ? ' It is filled in for you when you finish.' : '';
    $('step-status').textContent = `Field ${index + 1} of ${steps.length}: ${TYPE_NAMES[field.type].toLowerCase()}, page ${field.page}.${readOnlyNote}`;
    $<HTMLButtonElement>('prev-field').disabled = index <= 0;
    $('next-field').textContent = index === steps.length - 1 ? 'Go to finish' : 'Next field';
    const box = boxes.get(field.id)!;
    box.scrollIntoView({ block: 'center' });
    if (focusBox) box.focus();
  }

  // A field's box leads to the control that fills it.
  for (const [i, field] of steps.entries()) {
    boxes.get(field.id)!.addEventListener('click', () => {
      goTo(i, false);
      if (field.type === 'SIGNATURE') $('signature-legend').focus();
      else if (field.type === 'INITIALS') $('initials-legend').focus();
      else if (field.type === 'TEXT') textInputs.get(field.id)!.focus();
    });
  }
  $('prev-field').addEventListener('click', () => goTo(Math.max(0, current - 1)));
  // Past the last field the walk ends at the marks and the consent, the first of them that applies.
  $('next-field').addEventListener('click', () => {
    if (current < steps.length - 1) return goTo(current + 1);
    const panel = ['signature-panel', 'initials-panel', 'text-panel'].find((id) => !$(id).hidden);
    (panel ? $(panel).querySelector<HTMLElement>('legend[tabindex], input')! : $('consent')).focus();
  });
  // What the signer typed or drew while the pages were being drawn reaches the boxes drawn before it.
  refreshBoxes();
  if (steps.length > 0) {
    // Nothing is scrolled to before the signer asks: the first field is the bar's first button.
    $('step-status').textContent = `${steps.length} ${steps.length === 1 ? 'field' : 'fields'} to fill in.`;
    $('next-field').textContent = 'Go to the first field';
    $<HTMLButtonElement>('prev-field').disabled = true;
  } else {
    $('step-status').textContent = 'You have no fields to fill in on this document: review it, then agree and finish.';
    $('next-field').hidden = $('prev-field').hidden = true;
  }
  $('pages').removeAttribute('aria-busy');

  $('finish').addEventListener('click', () => finish({ signature: has('SIGNATURE') ? signature : null, initials: has('INITIALS') ? initials : null, textInputs }));
}

// ---- finishing ----

interface Marks {
  signature: MarkPanel | null;
  initials: MarkPanel | null;
  textInputs: Map<string, HTMLInputElement>;
}

async function finish(marks: Marks) {
  const problems: Parameters<typeof showErrors>[0] = [];
  const body: Record<string, unknown> = { consent: true };
  if (marks.signature) {
    if (marks.signature.mode() === 'draw') {
      const png = marks.signature.pad.pngBase64();
      if (png) body.signaturePng = png;
      else problems.push({ message: 'Draw your signature, or choose Type and type your name.', control: $('signature-mode-draw'), errorEl: $('signature-error') });
    } else {
      const name = $<HTMLInputElement>('typed-name').value.trim();
      if (name) body.typedName = name;
      else problems.push({ message: 'Type your full name to sign.', control: $('typed-name'), errorEl: $('signature-error') });
    }
  }
  if (marks.initials?.mode() === 'draw') {
    const png = marks.initials.pad.pngBase64();
    if (png) body.initialsPng = png;
    else problems.push({ message: 'Draw your initials, or choose "From my name".', control: $('initials-mode-draw'), errorEl: $('initials-error') });
  }
  const fieldValues = Object.fromEntries([...marks.textInputs].map(([id, input]) => [id, input.value.trim()]).filter(([, v]) => v !== ''));
  if (Object.keys(fieldValues).length > 0) body.fieldValues = fieldValues;
  if (!$<HTMLInputElement>('consent').checked)
    problems.push({ message: 'Tick the box to agree to sign electronically.', control: $('consent'), errorEl: $('consent-error') });
  showErrors(problems);
  if (problems.length > 0) return;

  const button = $<HTMLButtonElement>('finish');
  button.disabled = true;
  $('finish-status').textContent = 'Signing…';
  const res = await api('', body).catch(() => null);
  $('finish-status').textContent = '';
  button.disabled = false;
  if (res?.ok) return showSigned(false);
  if (!res) return showErrors([{ message: 'The signature could not be sent: check the connection and try again.' }]);
  const problem = await problemOf(res);
  if (res.status === 409) return showSigned(true);
  if (res.status === 404 && accessToken) {
    forgetAccess();
    $('code-status').textContent = 'Your session has ended: ask for a new code to continue.';
    return show('otp-step', $('send-code'));
  }
  if (res.status === 404) return show('unavailable', $('unavailable-title'));
  showErrors([{ message: problem.detail }, ...problem.errors.map((message) => ({ message }))]);
}

void open();
