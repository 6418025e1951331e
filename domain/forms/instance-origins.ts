/** How a form instance came to be: EMBED (public submit), API (instance routes) or OUTBOUND (sent to a recipient). */
export const FORM_INSTANCE_ORIGINS = ['EMBED', 'API', 'OUTBOUND'] as const;
