export * from './errors';
export { buildObjectKey, slugFilename, validateFilename, validateKeySegment, MAX_FILENAME_BYTES, MAX_SEGMENT_BYTES } from './storage-key';
export type { ObjectKeyInput } from './storage-key';
export * from './range';
export * from './content-disposition';
export * from './byte-counter';
export * from './retention';
export * from './signals';
