import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Leak {
  file: string;
  line: number;
  sentinel: string;
}

/** Every occurrence of a sentinel value in log text, by line. */
export function findLeaks(text: string, sentinels: readonly string[], file = '(text)'): Leak[] {
  const leaks: Leak[] = [];
  text.split('\n').forEach((line, i) => {
    for (const sentinel of sentinels) if (line.includes(sentinel)) leaks.push({ file, line: i + 1, sentinel });
  });
  return leaks;
}

/** The `.ndjson` files of a log directory with their text; none when it does not exist. */
export function readLogFiles(dir: string): Array<{ file: string; text: string }> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.ndjson'));
  } catch {
    return [];
  }
  return names.map((n) => ({ file: n, text: readFileSync(join(dir, n), 'utf8') }));
}

/** The routes whose path carries a link's bearer token, and the token's segment. */
const TOKEN_PATH = /^\/(?:sign|respond|embed|api\/public\/(?:embed|form-instances|sign-instance|sign)|api\/invitations)\/([^/?]+)/;

/** The request log lines (`"msg":"request"`) whose path holds a link token that is not redacted. */
export function findTokenPaths(text: string, file = '(text)'): Array<{ file: string; line: number; path: string }> {
  const found: Array<{ file: string; line: number; path: string }> = [];
  text.split('\n').forEach((line, i) => {
    if (!line.includes('"msg":"request"')) return;
    const path = String(JSON.parse(line).path ?? '');
    const token = TOKEN_PATH.exec(path)?.[1];
    // A link token is 43 base64url characters; a short segment in its place ('0', '..', 'abc' from
    // tests probing odd paths that no route matched) cannot be one.
    if (token !== undefined && token !== '[redacted]' && token.length >= 16) found.push({ file, line: i + 1, path });
  });
  return found;
}
