/**
 * Characters no form text keeps: C0 controls (U+0000-U+001F), DEL (U+007F), C1 controls
 * (U+0080-U+009F) and lone UTF-16 surrogates (PostgreSQL cannot store NUL, and a lone surrogate is
 * not valid UTF-8). Multi-line text (a textarea, a help text) keeps tab, LF and CR.
 *
 * Lengths count code points, as JSON Schema's minLength and maxLength do, so an emoji is one
 * character on the server and in any standard validator.
 */

const LONE_SURROGATE = '[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';
const ALL_CONTROLS = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f]|${LONE_SURROGATE}`, 'g');
const CONTROLS_BUT_LINES = new RegExp(`[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f]|${LONE_SURROGATE}`, 'g');

export function cleanText(text: string, multiline: boolean): string {
  return text.replace(multiline ? CONTROLS_BUT_LINES : ALL_CONTROLS, '');
}

export const hasUncleanText = (text: string, multiline: boolean): boolean => cleanText(text, multiline) !== text;

export function codePointLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** The first `max` code points of `text`, never splitting a surrogate pair. */
export function cutToCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  let units = 0;
  for (let n = 0; n < max && units < text.length; n++) {
    const c = text.charCodeAt(units);
    const pair = c >= 0xd800 && c <= 0xdbff && units + 1 < text.length;
    units += pair && text.charCodeAt(units + 1) >= 0xdc00 && text.charCodeAt(units + 1) <= 0xdfff ? 2 : 1;
  }
  return text.slice(0, units);
}
