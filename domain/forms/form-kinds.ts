/** A form definition's kind: INBOUND (embedded, submitted by anyone holding the embed token) or OUTBOUND (sent to a recipient). */
export const FORM_KINDS = ['INBOUND', 'OUTBOUND'] as const;
export type FormKind = (typeof FORM_KINDS)[number];
