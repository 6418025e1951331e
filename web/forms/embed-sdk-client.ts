/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The embed SDK (served as /embed.js). It turns every `<div data-platform-form="<token>">`, and its
// own script tag when that carries `data-form-token`, into a sandboxed iframe of /embed/{token}.
// Each frame gets its own random nonce and the page's origin in the URL fragment (never sent to
// the server); a message from a frame counts only when its origin is the service's, its source is
// that frame's window, and nonce and type match. The host element then receives DOM events:
// `platform-form:resize` { height } and `platform-form:submitted` { instanceId }.

const script = document.currentScript as HTMLScriptElement | null;
const service = script ? new URL(script.src).origin : location.origin;

/** allow-same-origin keeps the frame on the service's own origin (its API calls and its messages' origin); it never grants the host page's. */
const SANDBOX = 'allow-scripts allow-forms allow-same-origin';
const MIN_HEIGHT = 120;
const MAX_HEIGHT = 20_000;

const mounted = new WeakSet<Element>();

function nonce(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

function mount(host: HTMLElement, token: string): HTMLIFrameElement | undefined {
  if (mounted.has(host) || !token) return undefined;
  mounted.add(host);
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
    if (message.type === 'resize' && typeof message.height === 'number' && Number.isFinite(message.height)) {
      const height = Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.ceil(message.height)));
      frame.style.height = `${height}px`;
      host.dispatchEvent(new CustomEvent('platform-form:resize', { detail: { height } }));
    } else if (message.type === 'submitted' && typeof message.instanceId === 'string') {
      host.dispatchEvent(new CustomEvent('platform-form:submitted', { detail: { instanceId: message.instanceId }, bubbles: true }));
    }
  });
  host.append(frame);
  return frame;
}

function scan() {
  for (const host of Array.from(document.querySelectorAll<HTMLElement>('[data-platform-form]'))) mount(host, host.dataset.platformForm ?? '');
  const own = script?.dataset.formToken;
  if (script && own && !mounted.has(script)) {
    mounted.add(script);
    const host = document.createElement('div');
    host.dataset.title = script.dataset.title ?? 'Form';
    script.after(host);
    mount(host, own);
  }
}

(window as unknown as { PlatformForms?: unknown }).PlatformForms = { mount, scan };
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', scan);
else scan();
