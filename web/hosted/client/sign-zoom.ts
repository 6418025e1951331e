/// <reference lib="dom" />
// Zoom of the signing page's document: buttons (zoom out, the level, zoom in, fit to width) for
// mouse and keyboard, and a two-finger pinch on touch screens. The pages' width is the zoom times
// the column's; the viewer scrolls sideways when zoomed in; the canvases are redrawn at the new
// size once the gesture or the clicks settle, so the text stays sharp. Field boxes are placed in
// percentages of their page and follow without help.
import { $ } from './sign-controls';

const LEVELS = [1, 1.25, 1.5, 2, 3];
const MIN = LEVELS[0]!;
const MAX = LEVELS.at(-1)!;

export function zoomControls(pages: HTMLElement, redraw: () => Promise<void>) {
  const viewer = $('viewer');
  const level = $('zoom-level');
  const out = $<HTMLButtonElement>('zoom-out');
  const into = $<HTMLButtonElement>('zoom-in');
  const fit = $<HTMLButtonElement>('zoom-fit');
  $('zoom').hidden = false;
  let zoom = 1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let drawing = Promise.resolve();

  /** Sets the zoom; the canvases are redrawn once it stops changing. */
  function apply(next: number, settle = true) {
    zoom = Math.min(MAX, Math.max(MIN, Math.round(next * 100) / 100));
    pages.style.width = `${zoom * 100}%`;
    level.textContent = `${Math.round(zoom * 100)}%`;
    out.disabled = zoom <= MIN;
    into.disabled = zoom >= MAX;
    fit.disabled = zoom === 1;
    if (!settle) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      drawing = drawing.then(redraw).then(() => void pages.dispatchEvent(new CustomEvent('sign:redrawn', { bubbles: true })));
    }, 150);
  }

  out.addEventListener('click', () => apply([...LEVELS].reverse().find((l) => l < zoom) ?? MIN));
  into.addEventListener('click', () => apply(LEVELS.find((l) => l > zoom) ?? MAX));
  fit.addEventListener('click', () => apply(1));

  // Two fingers on the document zoom it (one finger still scrolls: touch-action keeps panning).
  const touches = new Map<number, { x: number; y: number }>();
  let start: { distance: number; zoom: number } | null = null;
  const distance = () => {
    const [a, b] = [...touches.values()];
    return Math.hypot(a!.x - b!.x, a!.y - b!.y);
  };
  viewer.addEventListener('pointerdown', (e) => {
    if (e.pointerType !== 'touch') return;
    touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (touches.size === 2) start = { distance: distance(), zoom };
  });
  viewer.addEventListener('pointermove', (e) => {
    if (!touches.has(e.pointerId)) return;
    touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (start && touches.size === 2 && start.distance > 0) apply(start.zoom * (distance() / start.distance), false);
  });
  const lift = (e: PointerEvent) => {
    if (!touches.delete(e.pointerId)) return;
    if (start && touches.size < 2) {
      start = null;
      apply(zoom);
    }
  };
  viewer.addEventListener('pointerup', lift);
  viewer.addEventListener('pointercancel', lift);
  apply(1, false);
}
