import type { AppEnv } from '../../api/env';
import type { ConsoleViewer } from './viewer';

/** The Hono env of every console route: the API's variables plus the page's viewer, nonce and CSRF token. */
export interface ConsoleEnv {
  Variables: AppEnv['Variables'] & {
    viewer: ConsoleViewer;
    /** The CSP nonce of this response (one per request). */
    nonce: string;
    /** The per-session CSRF token every form of this page carries. */
    csrfToken: string;
    /** The hashed script paths every console page loads (htmx, the console script). */
    consoleScripts: string[];
  };
}
