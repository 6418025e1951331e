// What is wrong with a campaign's start input or a signature, path by path: the one 400 both
// answer (`signing-input-invalid`, every issue in `errors`).
import { AppError } from '../errors';

export interface Issue {
  path: string;
  message: string;
}

export const signingInputInvalid = (what: string, errors: Issue[]) =>
  new AppError('signing-input-invalid', `${what}: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, { errors });
