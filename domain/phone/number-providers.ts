/** Where a tenant's number lives: provisioned at the voice provider, or imported from a carrier. */
export const NUMBER_PROVIDERS = ['vapi', 'twilio', 'vonage', 'telnyx'] as const;
export type NumberProvider = (typeof NUMBER_PROVIDERS)[number];
