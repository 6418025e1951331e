import { z } from '@hono/zod-openapi';
import { EMBED_TOKEN_PATTERN, MAX_EMBED_TOKEN_LENGTH } from '../../domain/forms/embed-token';
import { EMBED_SESSION, EMBED_SESSION_MAX_LENGTH } from '../../services/forms/embed-attachments';
import type { DocumentView } from '../../services/documents/document-view';
import { SCAN_STATUSES } from '../../domain/documents/document-fields';
import { credential, text } from '../vocabulary';
import { Status } from './schemas';

/**
 * The embed session's credentials, as headers on every public documents route (the link body
 * carries its processRef instead): a missing or over-long token answers as a wrong one (404).
 */
export const EmbedHeaders = z.object({
  'x-embed-token': credential(EMBED_TOKEN_PATTERN, MAX_EMBED_TOKEN_LENGTH).openapi({ description: 'The embed token of the form (the `/embed/{token}` path). Missing, malformed, unknown, rotated or of an unpublished form: 404 `embed-form-not-found`' }),
  'x-embed-session': credential(EMBED_SESSION, EMBED_SESSION_MAX_LENGTH).openapi({ description: "The session's processRef, minted by the browser: `emb_` and 22-64 base64url characters (at least 128 random bits); missing or any other value: 400 `embed-session-invalid`", example: 'emb_3q2-7wAAx9Zk1mPq0vTr8w' }),
});

export const embedToken = (header: string | undefined): string => (header && header.length <= MAX_EMBED_TOKEN_LENGTH ? header : '');

/** What an anonymous respondent sees of its attachment: nothing about the tenant, the case or who else stored what. */
export const PublicAttachment = z
  .object({
    id: z.string().uuid(),
    filename: z.string(),
    contentType: z.string(),
    sizeBytes: z.number().int().nullable(),
    status: Status,
    scanStatus: z.enum(SCAN_STATUSES),
    createdAt: z.string(),
  })
  .openapi('EmbedAttachment');

export const publicAttachment = (v: DocumentView): z.infer<typeof PublicAttachment> => ({
  id: v.id,
  filename: v.filename,
  contentType: v.contentType,
  sizeBytes: v.sizeBytes,
  status: v.status,
  scanStatus: v.scanStatus,
  createdAt: v.createdAt,
});

export const LinkBody = z
  .object({
    processRef: text({ max: 200 }).openapi({ description: 'The session processRef the files were uploaded under (and the submit sent)' }),
    instanceId: text({ max: 100 }).openapi({ description: 'The `id` the embed submit answered' }),
  })
  .openapi('EmbedAttachmentLink');

export const LinkResult = z
  .object({ instanceId: z.string(), documentIds: z.array(z.string()).openapi({ description: 'The READY attachments now owned by the instance' }) })
  .openapi('EmbedAttachmentsLinked');
