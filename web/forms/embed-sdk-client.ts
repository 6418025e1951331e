/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The embed SDK (served as /embed.js). It turns every `<div data-platform-form="<token>">`, and its
// own script tag when that carries `data-form-token`, into a sandboxed iframe of /embed/{token}.
//
// Before framing it asks the service whether this page's origin may show the form
// (GET /api/public/embed/{token}/frame-check): a frame that frame-ancestors blocks cannot tell its
// host anything (its load event fires all the same), and a load timeout would be a guess on a slow
// network. Not allowed, or no form: a short styled message takes the frame's place and the host
// element receives `platform-form:error` { reason, message }, reason one of `origin-not-allowed`,
// `form-not-available`, `form-not-loaded` (the check itself failed).
//
// Each frame gets its own random nonce and the page's origin in the URL fragment (never sent to
// the server); a message from a frame counts only when its origin is the service's, its source is
// that frame's window, and nonce and type match. The host element then receives DOM events:
// `platform-form:ready` once the form is shown, `platform-form:resize` { height } and
// `platform-form:submitted` { instanceId }.

const script = document.currentScript as HTMLScriptElement | null;
const service = script ? new URL(script.src).origin : location.origin;

/** allow-same-origin keeps the frame on the service's own origin (its API calls and its messages' origin); it never grants the host page's. */
const SANDBOX = 'allow-scripts allow-forms allow-same-origin';
const MIN_HEIGHT = 120;
const MAX_HEIGHT = 20_000;

export type EmbedErrorReason = 'origin-not-allowed' | 'form-not-available' | 'form-not-loaded';

const MESSAGES: Record<EmbedErrorReason, { title: string; detail: string }> = {
  'origin-not-allowed': {
    title: 'This form cannot be shown on this site',
    detail: `The form's owner has not allowed ${location.origin} to show it.`,
  },
  'form-not-available': {
    title: 'This form is not available',
    detail: 'The link may be out of date, or the form is no longer published.',
  },
  'form-not-loaded': {
    title: 'This form could not be loaded',
    detail: 'The form service did not answer. Reload the page to try again.',
  },
};

const mounted = new WeakSet<Element>();

function nonce(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Styled through the CSSOM, which a host page's style-src does not restrict (style attributes in markup it may). */
function showMessage(host: HTMLElement, reason: EmbedErrorReason) {
  const { title, detail } = MESSAGES[reason];
  const box = document.createElement('div');
  box.className = 'platform-form-message';
  box.dataset.reason = reason;
  box.style.cssText =
    'box-sizing:border-box;width:100%;padding:16px 20px;border:1px solid #8a8a8a;border-left:6px solid #1a4fa0;border-radius:6px;' +
    'background:#f6f7f9;color:#1b1b1b;font:16px/1.45 system-ui,sans-serif;';
  const heading = document.createElement('p');
  heading.textContent = title;
  heading.style.cssText = 'margin:0 0 4px;font-weight:600;';
  const text = document.createElement('p');
  text.textContent = detail;
  text.style.cssText = 'margin:0;';
  box.append(heading, text);
  host.replaceChildren(box);
  host.dispatchEvent(new CustomEvent('platform-form:error', { detail: { reason, message: `${title}. ${detail}` }, bubbles: true }));
}

/** What the service says of this page's origin; a failed check is `form-not-loaded` (nothing is framed blind). */
async function frameVerdict(token: string): Promise<EmbedErrorReason | undefined> {
  try {
    const url = `${service}/api/public/embed/${encodeURIComponent(token)}/frame-check?origin=${encodeURIComponent(location.origin)}`;
    const res = await fetch(url, { mode: 'cors', credentials: 'omit', referrerPolicy: 'no-referrer' });
    if (res.status === 404 || res.status === 400) return 'form-not-available';
    if (res.status !== 200) return 'form-not-loaded';
    const body = (await res.json()) as { allowed?: unknown };
    return body.allowed === true ? undefined : 'origin-not-allowed';
  } catch {
    return 'form-not-loaded';
  }
}

function frameFor(host: HTMLElement, token: string): HTMLIFrameElement {
  const channel = nonce();
  const frame = document.createElement('iframe');
  frame.src = `${service}/embed/${encodeURIComponent(token)}#nonce=${channel}&origin=${encodeURIComponent(location.origin)}`;
  frame.setAttribute('sandbox', SANDBOX);
  frame.setAttribute('referrerpolicy', 'no-referrer');
  frame.title = host.dataset.title ?? 'Form';
  frame.style.cssText = 'width:100%;border:0;display:block;';
  frame.style.height = '480px';
  window.addEventListener('message', (event: MessageEvent) => {
    if (event.origin !== service || event.source !== frame.contentWindow) return;
    const message = event.data as { type?: unknown; nonce?: unknown; height?: unknown; instanceId?: unknown } | null;
    if (!message || typeof message !== 'object' || message.nonce !== channel) return;
    if (message.type === 'ready') {
      host.dispatchEvent(new CustomEvent('platform-form:ready', { bubbles: true }));
    } else if (message.type === 'resize' && typeof message.height === 'number' && Number.isFinite(message.height)) {
      const height = Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.ceil(message.height)));
      frame.style.height = `${height}px`;
      host.dispatchEvent(new CustomEvent('platform-form:resize', { detail: { height } }));
    } else if (message.type === 'submitted' && typeof message.instanceId === 'string') {
      host.dispatchEvent(new CustomEvent('platform-form:submitted', { detail: { instanceId: message.instanceId }, bubbles: true }));
    }
  });
  return frame;
}

/** Frames the form in `host` once the service says this page may show it; else the message and the error event. */
async function mount(host: HTMLElement, token: string): Promise<HTMLIFrameElement | undefined> {
  if (mounted.has(host) || !token) return undefined;
  mounted.add(host);
  const refused = await frameVerdict(token);
  if (refused) {
    showMessage(host, refused);
    return undefined;
  }
  const frame = frameFor(host, token);
  host.append(frame);
  return frame;
}

function scan() {
  for (const host of Array.from(document.querySelectorAll<HTMLElement>('[data-platform-form]'))) void mount(host, host.dataset.platformForm ?? '');
  const own = script?.dataset.formToken;
  if (script && own && !mounted.has(script)) {
    mounted.add(script);
    const host = document.createElement('div');
    host.dataset.title = script.dataset.title ?? 'Form';
    script.after(host);
    void mount(host, own);
  }
}

(window as unknown as { PlatformForms?: unknown }).PlatformForms = { mount, scan };
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', scan);
else scan();
