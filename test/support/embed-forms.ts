// The forms' hosted pages in tests: a form with every field type, and the Chromium helpers their
// page tests share (axe at both sizes, keyboard-only moves, collected page errors).
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestContext } from './app';

/** A form with every field type, a `visibleIf` and a file field: the hosted page and its e2e tests use it. */
export const ALL_TYPES_DRAFT = {
  title: 'Every field <b>type</b>',
  description: 'Tell us about you & your order.',
  fields: [
    { key: 'intro', type: 'content', label: 'Before you start', help: 'It takes two minutes.' },
    { key: 'name', type: 'text', label: 'Your <script>name</script>', required: true, help: 'As on your ID' },
    { key: 'notes', type: 'textarea', label: 'Notes' },
    { key: 'email', type: 'email', label: 'Email', required: true },
    { key: 'phone', type: 'tel', label: 'Phone' },
    { key: 'age', type: 'number', label: 'Age', validation: { min: 18, max: 150, integer: true } },
    { key: 'born', type: 'date', label: 'Born' },
    { key: 'color', type: 'select', label: 'Colour', options: [{ value: 'red', label: 'Red' }, { value: 'blue', label: 'Blue' }] },
    { key: 'size', type: 'radio', label: 'Size', required: true, options: [{ value: 's', label: 'Small' }, { value: 'l', label: 'Large' }] },
    { key: 'size_note', type: 'text', label: 'Why large?', required: true, visibleIf: { field: 'size', equals: 'l' } },
    { key: 'tags', type: 'multiselect', label: 'Tags', options: [{ value: 'a', label: 'Alpha' }, { value: 'b', label: 'Beta' }] },
    { key: 'agree', type: 'checkbox', label: 'I agree', required: true },
    { key: 'proof', type: 'file', label: 'Proof', validation: { maxItems: 2 } },
    { key: 'source', type: 'hidden', label: 'Source' },
  ],
};

// ---- the forms' hosted pages in Chromium ----


/** The two sizes every hosted page is checked at. */
export const VIEWPORTS = [
  { name: '1280×800', viewport: { width: 1280, height: 800 } },
  { name: '390×844', viewport: { width: 390, height: 844 } },
] as const;

/** No serious or critical axe violation (WCAG 2.2 AA rules included) on the page as it is now. */
export async function expectNoSeriousAxe(page: Page, state: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${state}: ${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad).toEqual([]);
}

/** A page in its own context with every script error, console error and CSP violation collected. */
export async function openHostedPage(browser: Browser, url: string, viewport: { width: number; height: number } = VIEWPORTS[0].viewport) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // Refused API calls log their failed loads; those are answers the tests ask for.
  page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && errors.push(m.text()));
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`)),
  );
  const res = await page.goto(url);
  return { page, errors, status: res!.status(), close: () => context.close() };
}

/**
 * Keyboard only: Tab (or Shift+Tab) until `selector` has focus, failing after `limit` presses;
 * every stop on the way must show where focus is (an outline, or the styled file button).
 */
export async function tabTo(page: Page, selector: string, { back = false, limit = 40 } = {}) {
  for (let i = 0; i < limit; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${selector} was not reached with the keyboard in ${limit} presses`);
}

/** Whether the focused element shows a focus indicator: its own outline, or (a visually hidden file input) its button's. */
export const focusVisible = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return false;
    const shown = el.classList.contains('file-input') ? (el.nextElementSibling as HTMLElement) : el;
    const style = getComputedStyle(shown);
    return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
  });

/** An outbound form whose recipient must attach a file: the respond page's former dead end. */
export const FILE_RESPONSE_DRAFT = {
  title: 'Expense claim',
  fields: [
    { key: 'account', type: 'text', label: 'Account', required: true },
    { key: 'answer', type: 'text', label: 'What was it for?', required: true },
    { key: 'receipt', type: 'file', label: 'Receipt', required: true, validation: { maxItems: 2 } },
    { key: 'urgent', type: 'checkbox', label: 'Urgent' },
  ],
};
export const FILE_RESPONSE_ROLES = { account: 'PREPARER', answer: 'RECIPIENT', receipt: 'RECIPIENT', urgent: 'EITHER' };

/** Deletes the code cooldowns of the recipients' links (what a test does instead of waiting a minute). */
export const endCodeCooldowns = (ctx: TestContext) => ctx.db.sql`delete from rate_limits where key like ${'forms-recipient-code-cooldown%'}`;
