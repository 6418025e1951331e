// The console's one script besides htmx: the copy buttons (shown only when this script runs),
// focus after a partial update (so a keyboard user lands on the answer, not at the top of the
// page), and a sentence when the server or the network fails. No inline handlers anywhere.

const FAILED = 'Something went wrong and nothing was changed. Reload the page and try again.';
const OFFLINE = 'The server could not be reached. Check your connection and try again.';

function announce(text: string) {
  const box = document.getElementById('console-alert');
  if (!box) return;
  box.textContent = text;
  box.hidden = false;
  box.focus();
}

async function copyFrom(button: HTMLButtonElement) {
  const source = document.getElementById(button.dataset['copy'] ?? '') as HTMLInputElement | null;
  const status = document.getElementById(button.dataset['copyStatus'] ?? '');
  if (!source) return;
  try {
    await navigator.clipboard.writeText(source.value);
    if (status) status.textContent = 'Copied to the clipboard.';
  } catch {
    // No clipboard permission: select the text so Ctrl+C copies it.
    source.focus();
    source.select();
    if (status) status.textContent = 'Press Ctrl+C (or Cmd+C) to copy the selected link.';
  }
}

function wireCopyButtons(root: ParentNode) {
  for (const button of Array.from(root.querySelectorAll<HTMLButtonElement>('button[data-copy]'))) {
    if (button.dataset['wired']) continue;
    button.dataset['wired'] = '1';
    button.hidden = false;
    button.addEventListener('click', () => void copyFrom(button));
  }
}

/** After htmx replaced the main region: the first notice, else the page heading, takes the focus. */
function focusAnswer(target: Element) {
  const active = document.activeElement;
  if (active && active !== document.body && target.contains(active)) return;
  const notice = document.querySelector<HTMLElement>('#main .notice');
  const landing = notice ?? document.querySelector<HTMLElement>('#main h1');
  if (!landing) return;
  if (!landing.hasAttribute('tabindex')) landing.setAttribute('tabindex', '-1');
  landing.focus();
}

document.addEventListener('DOMContentLoaded', () => wireCopyButtons(document));
document.body?.addEventListener('htmx:afterSettle', (event) => {
  const target = (event as CustomEvent<{ target: Element }>).detail.target;
  wireCopyButtons(document);
  const alert = document.getElementById('console-alert');
  if (alert) alert.hidden = true;
  focusAnswer(target ?? document.body);
});
document.body?.addEventListener('htmx:responseError', (event) => {
  const xhr = (event as CustomEvent<{ xhr: XMLHttpRequest }>).detail.xhr;
  // 4xx answers are pages with their own message (swapped in); only a server failure lands here alone.
  if (xhr.status >= 500) announce(FAILED);
});
document.body?.addEventListener('htmx:sendError', () => announce(OFFLINE));
