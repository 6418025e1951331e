// The opaque cursor of a document list: the (createdAt, id) of the last row of the page.
import { badRequest } from '../../domain/errors';

export function encodeCursor(createdAt: Date, id: string) {
  return Buffer.from(`${createdAt.toISOString()}|${id}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at ?? '');
  if (!id || !/^[0-9a-f-]{36}$/.test(id) || Number.isNaN(createdAt.getTime())) {
    throw badRequest('invalid-cursor', 'The cursor is not one this service issued');
  }
  return { createdAt, id };
}
