// When a campaign counts as expired, whatever its stored status says.

/** Past its expiresAt a live campaign is treated as EXPIRED at once (the ceremony's timer writes it). */
export const expiredByTime = (row: { expiresAt: Date | null }, now: Date) => row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime();
