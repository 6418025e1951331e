// The tiny check runner shared by scripts/check-embedded*.ts: named checks, a summary, asserts.
export const log = (msg: string) => console.log(`  · ${msg}`);
export const results: { name: string; ok: boolean; required: boolean; detail: string }[] = [];

export async function check(name: string, fn: () => Promise<string | void>, required = true): Promise<void> {
  try {
    const detail = (await fn()) ?? '';
    results.push({ name, ok: true, required, detail });
    console.log(`  ✓ ${name}${detail ? ` — ${detail}` : ''}`);
  } catch (err) {
    const detail = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    results.push({ name, ok: false, required, detail });
    console.log(`  ${required ? '✗' : '!'} ${name} — ${detail}`);
  }
}

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}
