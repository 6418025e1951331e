import { crc32, inflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';

/**
 * Bounds of a drawn mark. A signing pad at a phone's pixel ratio (at most 860 CSS pixels wide,
 * cropped to its ink) stays well inside them; beyond them a PNG of a few hundred kilobytes could
 * declare gigapixels, which the sealing worker would decode on every seal attempt.
 */
export const MARK_MAX_SIDE = 4096;
export const MARK_MAX_PIXELS = 4096 * 1024;

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const IHDR = [0x49, 0x48, 0x44, 0x52];
/** Samples per pixel, and the bit depths the PNG specification allows, by colour type. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const DEPTHS: Record<number, readonly number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

/** The size a PNG's header (its first chunk, IHDR) declares; null when the bytes do not start as a PNG. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (bytes.length < 24 || PNG_MAGIC.some((b, i) => bytes[i] !== b) || IHDR.some((b, i) => bytes[12 + i] !== b)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = { width: view.getUint32(16), height: view.getUint32(20) };
  return size.width > 0 && size.height > 0 ? size : null;
}

interface Chunks {
  ihdr: Buffer;
  palette: boolean;
  idat: Buffer[];
}

function chunksOf(png: Buffer): Chunks | string {
  const found: Chunks = { ihdr: Buffer.alloc(0), palette: false, idat: [] };
  for (let at = 8; at + 12 <= png.length; ) {
    const length = png.readUInt32BE(at);
    const end = at + 12 + length;
    if (end > png.length) return 'a PNG chunk runs past the end of the file';
    const type = png.toString('latin1', at + 4, at + 8);
    if (crc32(png.subarray(at + 4, end - 4)) !== png.readUInt32BE(end - 4)) return `a PNG chunk (${type}) fails its CRC`;
    const data = png.subarray(at + 8, end - 4);
    if (type === 'IEND') return found;
    if (type === 'IHDR') found.ihdr = data;
    else if (type === 'PLTE') found.palette = true;
    else if (type === 'IDAT') found.idat.push(data);
    at = end;
  }
  return 'not a complete PNG image (no IEND)';
}

/**
 * Why these bytes cannot be a mark, or null: a whole PNG (every chunk's CRC, a valid header,
 * not interlaced) within the size bounds whose pixels inflate, with node's zlib bounded by the
 * declared size, to exactly the rows the header declares, each with a known filter. Checked before
 * any PNG decoder sees the bytes: pdf-lib's decoder never returns on pixels that do not inflate,
 * which would hold the event loop of whatever process asked.
 */
export function markPngStructureProblem(bytes: Uint8Array): string | null {
  const size = pngSize(bytes);
  if (!size) return 'not a PNG image';
  if (size.width > MARK_MAX_SIDE || size.height > MARK_MAX_SIDE || size.width * size.height > MARK_MAX_PIXELS) {
    return `${size.width}×${size.height} pixels: at most ${MARK_MAX_SIDE} a side and ${MARK_MAX_PIXELS} in all`;
  }
  const chunks = chunksOf(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (typeof chunks === 'string') return chunks;
  const { ihdr } = chunks;
  const [depth, colour, compression, filter, interlace] = [ihdr[8]!, ihdr[9]!, ihdr[10]!, ihdr[11]!, ihdr[12]!];
  if (ihdr.length !== 13 || !DEPTHS[colour]?.includes(depth) || compression !== 0 || filter !== 0 || interlace > 1) return 'not a valid PNG header';
  if (interlace === 1) return 'interlaced PNG images are not accepted';
  if (colour === 3 && !chunks.palette) return 'a palette PNG without its palette';
  const rowBytes = 1 + Math.ceil((size.width * CHANNELS[colour]! * depth) / 8);
  let pixels: Buffer;
  try {
    pixels = inflateSync(Buffer.concat(chunks.idat), { maxOutputLength: rowBytes * size.height });
  } catch {
    return 'the PNG pixels do not inflate to the size its header declares';
  }
  if (pixels.length !== rowBytes * size.height) return 'the PNG pixels do not inflate to the size its header declares';
  for (let row = 0; row < size.height; row++) if (pixels[row * rowBytes]! > 4) return 'a PNG row has an unknown filter';
  return null;
}

/**
 * Why these bytes cannot be a signature or initials mark, or null: the structure above, then a
 * decode the way the seal will decode them (pdf-lib), checked when the signer submits, so a mark
 * that could never be sealed is refused while the signer is there.
 */
export async function markPngProblem(bytes: Uint8Array): Promise<string | null> {
  const problem = markPngStructureProblem(bytes);
  if (problem) return problem;
  try {
    await (await PDFDocument.create()).embedPng(bytes);
    return null;
  } catch {
    return 'not a decodable PNG image';
  }
}
