// The markup of the hosted signing page (GET /sign/{token}). It holds nothing of the ceremony:
// the page cannot know the document before the recipient API answers (and, with EMAIL_OTP, before
// the code), so every state is here, hidden, and the script (api/hosted/client/sign-client.ts)
// fills in and shows the one that applies.
import { html } from 'hono/html';

export const CONSENT_TEXT =
  'I agree to sign this document electronically, and that my electronic signature, initials and entries have the same effect as if I had signed on paper.';

const padMarkup = (id: 'signature' | 'initials', drawLabel: string, altLabel: string, alt: ReturnType<typeof html>) => html`
<div class="choice"><input type="radio" name="${id}-mode" id="${id}-mode-draw" value="draw" checked><label for="${id}-mode-draw">${drawLabel}</label></div>
<div class="choice"><input type="radio" name="${id}-mode" id="${id}-mode-alt" value="alt"><label for="${id}-mode-alt">${altLabel}</label></div>
<div id="${id}-draw" class="pad-area">
<p class="help" id="${id}-pad-help">Draw with your finger, a pen or the mouse. If you cannot draw, choose "${altLabel}".</p>
<canvas id="${id}-pad" class="pad" role="img" aria-label="${id === 'signature' ? 'Signature' : 'Initials'} drawing area" aria-describedby="${id}-pad-help"></canvas>
<p><button type="button" class="link" id="${id}-clear">Clear ${id === 'signature' ? 'signature' : 'initials'}</button></p>
</div>
<div id="${id}-alt" hidden>${alt}</div>
<p class="error" id="${id}-error" hidden></p>`;

export const SIGN_PAGE_BODY = html`
<h1 id="page-title" tabindex="-1">Review and sign</h1>
<p id="loading" role="status" tabindex="-1">Loading the document…</p>

<section id="otp-step" hidden aria-labelledby="otp-title">
<h2 id="otp-title">Confirm your e-mail address</h2>
<p>Before you can open this document, we e-mail you a 6-digit code to the address it was sent to.</p>
<p><button type="button" id="send-code">E-mail me a code</button></p>
<p id="code-status" role="status" aria-live="polite"></p>
<form id="code-form" novalidate>
<label for="code">Code from the e-mail</label>
<input type="text" id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" aria-describedby="code-error">
<p class="error" id="code-error" hidden></p>
<p><button type="submit" id="open-document">Open the document</button></p>
</form>
</section>

<section id="unavailable" hidden aria-labelledby="unavailable-title">
<h2 id="unavailable-title" tabindex="-1">This signing link is not available</h2>
<p>It may be incomplete, already used, cancelled, or not your turn to sign yet. Open it again from the e-mail, or ask the sender.</p>
</section>

<section id="ceremony" hidden aria-labelledby="page-title">
<p id="signer"></p>
<p id="routing"></p>
<dl id="variables" hidden></dl>
<div id="error-summary" class="error-summary" role="alert" tabindex="-1" hidden></div>
<nav class="stepper" aria-label="Your fields">
<p id="step-status" aria-live="polite"></p>
<span class="step-buttons"><button type="button" id="prev-field">Previous field</button>
<button type="button" id="next-field">Next field</button></span>
</nav>
<div id="zoom" class="zoom" role="group" aria-label="Zoom" hidden>
<button type="button" id="zoom-out" aria-label="Zoom out">−</button>
<output id="zoom-level" aria-live="polite" aria-label="Zoom level">100%</output>
<button type="button" id="zoom-in" aria-label="Zoom in">+</button>
<button type="button" id="zoom-fit" class="link">Fit to width</button>
</div>
<div id="viewer" class="viewer"><div id="pages" class="pages"></div></div>

<fieldset id="signature-panel" hidden>
<legend id="signature-legend" tabindex="-1">Your signature</legend>
${padMarkup(
  'signature',
  'Draw',
  'Type',
  html`<label for="typed-name">Type your full name</label><input type="text" id="typed-name" autocomplete="name" maxlength="200" aria-describedby="signature-error">`,
)}
</fieldset>

<fieldset id="initials-panel" hidden>
<legend id="initials-legend" tabindex="-1">Your initials</legend>
${padMarkup('initials', 'Draw', 'From my name', html`<p class="help">Your initials are written from your name when the document is sealed.</p>`)}
</fieldset>

<fieldset id="text-panel" hidden>
<legend>Your entries</legend>
<div id="text-fields"></div>
</fieldset>

<div class="choice consent"><input type="checkbox" id="consent" aria-describedby="consent-error"><label for="consent">${CONSENT_TEXT}</label></div>
<p class="error" id="consent-error" hidden></p>
<p><button type="button" id="finish">Finish and sign</button></p>
<p id="finish-status" role="status" aria-live="polite"></p>
</section>

<section id="done" hidden aria-labelledby="done-title">
<h2 id="done-title" tabindex="-1">Signed</h2>
<p id="done-text"></p>
</section>`;

export const SIGN_PAGE_STYLE = `
main { max-width: 860px; }
.viewer { overflow-x: auto; touch-action: pan-x pan-y; margin: 0 0 1rem; }
.pages { display: flex; flex-direction: column; gap: 12px; width: 100%; }
.page { position: relative; width: 100%; box-shadow: 0 0 0 1px #767676; background: #fff; }
.page canvas { display: block; width: 100%; height: 100%; }
/* The page's words for screen readers: in the reading order, not drawn (the canvas shows them). */
.page-text { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: normal; }
/* The button is the field's own box; its ::after reaches out to at least 24 x 24 CSS px around the
   centre (WCAG 2.2 target size; no more, so close fields' areas do not overlap), while the drawn
   mark keeps the field's size. */
.field-box { position: absolute; box-sizing: border-box; margin: 0; padding: 0; border: 0; border-radius: 2px; background: none; color: #1b1b1b; cursor: pointer; }
.field-box::after { content: ''; position: absolute; left: 50%; top: 50%; width: max(100%, 24px); height: max(100%, 24px); transform: translate(-50%, -50%); }
.field-mark { position: absolute; inset: 0; box-sizing: border-box; padding: 0 2px; border: 2px dashed #1a4fa0; border-radius: 2px; background: rgba(255, 236, 153, .55); font-size: clamp(9px, 1.6vw, 14px); overflow: hidden; text-align: left; display: flex; align-items: center; white-space: nowrap; }
.field-box.done .field-mark { border-style: solid; background: rgba(220, 240, 220, .6); }
.field-box.current { outline: 3px solid #f5a623; outline-offset: 1px; }
.field-box.current .field-mark { background: rgba(255, 214, 102, .75); }
.field-box img { max-width: 100%; max-height: 100%; }
.field-box.readonly { cursor: default; }
.field-box.readonly .field-mark { border-color: #555; }
.stepper { position: sticky; top: 0; z-index: 2; background: #fff; padding: .25rem 0; display: flex; flex-wrap: wrap; gap: .25rem .5rem; align-items: center; border-bottom: 1px solid #ccc; margin-bottom: .5rem; }
.stepper p { flex: 1 1 16rem; margin: 0; font-weight: 600; font-size: .875rem; line-height: 1.3; }
.step-buttons { display: flex; gap: .5rem; }
.stepper button { padding: .125rem .75rem; font-size: .9375rem; min-height: 30px; }
/* On a phone the status keeps one line (the whole of it is announced, aria-live) above the buttons. */
@media (max-width: 600px) { .stepper p { flex-basis: 100%; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; } }
.zoom { display: flex; gap: .5rem; align-items: center; margin: 0 0 .5rem; }
.zoom button:not(.link) { min-width: 36px; min-height: 32px; padding: .125rem .5rem; font-size: 1.125rem; line-height: 1; }
.zoom output { min-width: 3.5rem; text-align: center; font-variant-numeric: tabular-nums; }
.pad { display: block; width: 100%; height: 160px; border: 1px solid #555; border-radius: 4px; background: #fff; touch-action: none; }
fieldset { border: 1px solid #ccc; border-radius: 4px; padding: .75rem; }
.consent { align-items: flex-start; margin: 1rem 0 .5rem; }
.consent label { font-weight: 600; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem .75rem; }
dt { font-weight: 600; }
dd { margin: 0; overflow-wrap: anywhere; }
`;

/** The signed pages (server-rendered, no script): the download is a link drawn as the page's button. */
export const SIGNED_PAGE_STYLE = `
a.button { display: inline-block; padding: .75rem 1.5rem; border-radius: 4px; background: #1a4fa0; color: #fff; font-weight: 600; text-decoration: none; min-height: 24px; }
`;
