// What a receiver gets (Standard Webhooks payload structure): `{ type, timestamp, data }`, the
// timestamp being the event's, and `data.link` the record's URL under `public.base-url` (the event
// row keeps the path, so a changed base URL is reflected in the next attempt).

export interface WebhookEventLike {
  type: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

/** `data` with a relative `link` made absolute under `baseUrl`. */
export function renderEventData(data: Record<string, unknown>, baseUrl: string): Record<string, unknown> {
  const link = data.link;
  if (typeof link !== 'string' || !link.startsWith('/')) return data;
  return { ...data, link: `${baseUrl.replace(/\/+$/, '')}${link}` };
}

/** The request body of every attempt of a delivery: the same bytes each time for the same base URL. */
export function webhookBody(event: WebhookEventLike, baseUrl: string): string {
  return JSON.stringify({ type: event.type, timestamp: event.createdAt.toISOString(), data: renderEventData(event.data, baseUrl) });
}
