import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Counters of rate-limiter-flexible's RateLimiterDrizzle (its required shape: key, points,
 * expire). Shared by every API node through PostgreSQL, so a limit holds across the cluster.
 */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull(),
  expire: timestamp('expire', { withTimezone: true }),
});
