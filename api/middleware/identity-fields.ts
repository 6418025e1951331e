// What a request's user is made of, whichever way it arrives (gateway headers or a verified
// assertion's claims), and the forms its optional directory fields must have.

/** A display name: 1-200 characters, no control characters. */
export const USER_NAME = /^[^\u0000-\u001f\u007f]{1,200}$/;
/** An e-mail address as the directory keeps it: one @, no spaces. */
export const USER_EMAIL = /^[^\s@]{1,100}@[^\s@]{1,200}$/;

export interface RequestUser {
  userId: string;
  /** Directory fields, refreshed when they change. */
  name?: string;
  email?: string;
}
