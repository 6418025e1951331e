/**
 * Campaign statuses (issue 13, "Contract details"): the instance PENDING → OPENED → COMPLETED, or
 * CANCELLED / EXPIRED; a recipient R_WAITING (not armed yet) → R_PENDING (armed) → R_OPENED →
 * R_SIGNED. `sealStatus` is null until the seal ran once, then SEALED or FAILED.
 */
export const SIGNATURE_INSTANCE_STATES = ['PENDING', 'OPENED', 'COMPLETED', 'CANCELLED', 'EXPIRED'] as const;
export type SignatureInstanceState = (typeof SIGNATURE_INSTANCE_STATES)[number];

export const SEAL_STATES = ['SEALED', 'FAILED'] as const;
export type SealState = (typeof SEAL_STATES)[number];

export const RECIPIENT_STATES = ['R_WAITING', 'R_PENDING', 'R_OPENED', 'R_SIGNED'] as const;
export type RecipientState = (typeof RECIPIENT_STATES)[number];

export const DELIVERY_STATES = ['SENT', 'FAILED'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** A campaign that can still be signed, opened, reminded or cancelled. */
export const isLive = (s: SignatureInstanceState) => s === 'PENDING' || s === 'OPENED';
export const isTerminal = (s: SignatureInstanceState) => !isLive(s);

/** Armed and not yet signed: the recipient may open, sign and be reminded. */
export const isArmed = (s: RecipientState) => s === 'R_PENDING' || s === 'R_OPENED';
