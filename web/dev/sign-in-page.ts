// The development sign-in page: who to be (a user id, optionally a name and an e-mail), under a
// banner no one can miss. No script: a plain form posting back to the gateway.
import { html } from 'hono/html';
import { hostedPage } from '../hosted/page';
import type { RequestUser } from '../../api/middleware/identity-fields';

export interface SignInView {
  nonce: string;
  /** Who is signed in now, if anyone. */
  current?: RequestUser;
  /** What the form held when it was refused, and why. */
  values?: { userId?: string; name?: string; email?: string };
  error?: string;
}

const STYLE = `
.banner { background: #8a1c00; color: #fff; font-weight: 700; padding: .75rem 1rem; border-radius: 4px; margin: 0 0 1rem; }
form { margin: 0 0 1.5rem; }
.field { margin: 0 0 1rem; }
.current { border: 2px solid #1a4fa0; padding: .75rem 1rem; margin: 0 0 1rem; }
code { background: #eee; padding: 0 .25rem; }
`;

export function signInPage(view: SignInView): string {
  const v = view.values ?? {};
  const body = html`
<p class="banner" role="note">Development only: this sign-in trusts whatever you type. It exists under <code>npm start</code> and never in production.</p>
<h1>Development sign-in</h1>
${view.current
  ? html`<section class="current" aria-labelledby="current-title">
  <h2 id="current-title">Signed in as ${view.current.userId}</h2>
  <form method="post" action="/dev/sign-out"><button type="submit">Sign out</button></form>
  <p><a href="/console">Open the console</a></p>
</section>`
  : ''}
${view.error ? html`<p class="error" role="alert" id="form-error">${view.error}</p>` : ''}
<form method="post" action="/dev/sign-in"${view.error ? html` aria-describedby="form-error"` : ''}>
  <div class="field">
    <label for="userId">User id</label>
    <input type="text" id="userId" name="userId" required maxlength="200" autocomplete="username" value="${v.userId ?? ''}">
  </div>
  <div class="field">
    <label for="name">Name <span class="required">(optional)</span></label>
    <input type="text" id="name" name="name" maxlength="200" autocomplete="name" value="${v.name ?? ''}">
  </div>
  <div class="field">
    <label for="email">E-mail <span class="required">(optional)</span></label>
    <input type="email" id="email" name="email" maxlength="300" autocomplete="email" value="${v.email ?? ''}">
  </div>
  <button type="submit">Sign in</button>
</form>
<p>Your browser's requests then carry <code>X-User-Id</code>, <code>X-User-Name</code> and <code>X-User-Email</code> as a gateway would add them; requests that bring their own <code>X-User-Id</code> (curl) pass unchanged.</p>`;
  return hostedPage({ title: 'Development sign-in', nonce: view.nonce, body, style: STYLE });
}
