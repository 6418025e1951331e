// What a multipart/form-data upload may carry around its one file part, and what its
// Content-Length then promises about the file's size.

/** Room for boundaries, part headers and the metadata fields around a file at the cap. */
export const ENVELOPE_BYTES = 64 * 1024;

/**
 * How many bytes the file part surely has, from the request's Content-Length: what is left
 * after the bytes already fed to the parser, less the closing delimiter (`\r\n--boundary--\r\n`;
 * the boundary is shorter than the Content-Type header that carries it) and an epilogue of up to
 * ENVELOPE_BYTES. 0 when the request has no Content-Length (chunked).
 */
export function guaranteedFileBytes(declared: number, fed: number, contentType: string): number {
  if (!Number.isFinite(declared)) return 0;
  return Math.max(0, declared - fed - (contentType.length + 8) - ENVELOPE_BYTES);
}
