export type DocumentInputReason =
  | 'not-a-string'
  | 'empty'
  | 'too-long'
  | 'dot-segment'
  | 'separator'
  | 'control-character'
  | 'encoded-forbidden'
  | 'malformed-encoding';

/** Client-supplied document input that must be refused (the API answers 400). */
export class DocumentInputError extends Error {
  override readonly name = 'DocumentInputError';
  constructor(
    readonly field: string,
    readonly reason: DocumentInputReason,
    message = `${field}: ${reason}`,
  ) {
    super(message);
  }
}
