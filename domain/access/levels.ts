/** Grant levels, weakest first: a grant covers every level up to its own. */
export const LEVELS = ['read', 'read-write'] as const;

export type Level = (typeof LEVELS)[number];

/** Whether a held grant already gives what is wanted (read-write covers read). */
export const levelCovers = (held: Level, wanted: Level) => LEVELS.indexOf(held) >= LEVELS.indexOf(wanted);
