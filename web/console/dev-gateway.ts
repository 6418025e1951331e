// The development gateway of `npm start` (web/dev/) stands in front of the API as a proxy; the
// console learns that it is there from the setting `console.dev-sign-in`, which `npm start` sets.
import type { Context } from 'hono';
import type { ConsoleEnv } from './env';

const devSignIn = (c: Context<ConsoleEnv>) => c.get('deps').settings['console.dev-sign-in'];

/** Where the development gateway signs in; absent in production. */
export function devSignInPath(c: Context<ConsoleEnv>): string | undefined {
  return devSignIn(c) ? '/dev/sign-in' : undefined;
}

/** Where the development gateway signs out (a POST); absent in production. */
export function devSignOutPath(c: Context<ConsoleEnv>): string | undefined {
  return devSignIn(c) ? '/dev/sign-out' : undefined;
}
