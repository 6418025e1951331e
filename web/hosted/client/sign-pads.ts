/// <reference lib="dom" />
// A drawing area of the signing page: signature_pad (smooth Bézier strokes from pointer events, so
// mouse, pen and touch draw alike) on a canvas sized to its box at the screen's pixel ratio, and
// the drawing as a PNG cropped to its ink, so the seal scales the strokes, not the empty margin.
import SignaturePad from 'signature_pad';

export interface Pad {
  clear(): void;
  /** The ink as a PNG, base64 without the `data:` prefix; null when nothing is drawn. */
  pngBase64(): string | null;
  /** The ink as a data: URL for a preview; null when nothing is drawn. */
  dataUrl(): string | null;
}

const INK_MARGIN = 4;

function cropToInk(source: HTMLCanvasElement): HTMLCanvasElement | null {
  const { width, height } = source;
  const pixels = source.getContext('2d')!.getImageData(0, 0, width, height).data;
  let top = height, left = width, right = -1, bottom = -1;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (pixels[(y * width + x) * 4 + 3]! > 0) {
        if (x < left) left = x;
        if (x > right) right = x;
        if (y < top) top = y;
        if (y > bottom) bottom = y;
      }
  if (right < 0) return null;
  left = Math.max(0, left - INK_MARGIN);
  top = Math.max(0, top - INK_MARGIN);
  const w = Math.min(width, right + INK_MARGIN + 1) - left;
  const h = Math.min(height, bottom + INK_MARGIN + 1) - top;
  const out = document.createElement('canvas');
  out.width = w;
  out.height = h;
  out.getContext('2d')!.drawImage(source, left, top, w, h, 0, 0, w, h);
  return out;
}

export function createPad(canvas: HTMLCanvasElement, onChange: () => void): Pad {
  const pad = new SignaturePad(canvas, { penColor: '#0b1f4d', minWidth: 0.8, maxWidth: 2.8 });
  // The cropped ink, kept until the drawing changes: the field previews ask for it on every
  // keystroke elsewhere on the page, and cropping scans every pixel of the canvas.
  let ink: string | null | undefined;
  const changed = () => {
    ink = undefined;
    onChange();
  };
  pad.addEventListener('endStroke', changed);

  // The canvas's pixels follow its box (a phone turned sideways resizes it); strokes are kept.
  function fit() {
    const ratio = Math.max(window.devicePixelRatio || 1, 1);
    const width = canvas.offsetWidth * ratio;
    const height = canvas.offsetHeight * ratio;
    if (width === 0 || (canvas.width === width && canvas.height === height)) return;
    const strokes = pad.toData();
    canvas.width = width;
    canvas.height = height;
    canvas.getContext('2d')!.scale(ratio, ratio);
    pad.clear();
    pad.fromData(strokes);
    ink = undefined;
  }
  new ResizeObserver(fit).observe(canvas);
  fit();

  const dataUrl = () => {
    if (ink === undefined) ink = pad.isEmpty() ? null : (cropToInk(canvas)?.toDataURL('image/png') ?? null);
    return ink;
  };
  return {
    clear() {
      pad.clear();
      changed();
    },
    dataUrl,
    pngBase64: () => dataUrl()?.replace(/^data:image\/png;base64,/, '') ?? null,
  };
}
