// The expiry sweep's step: open instances (DRAFT, SENT, OPENED) whose expiresAt has passed become
// EXPIRED, a bounded batch per transaction, oldest deadline first. Rows another transaction holds
// are skipped (the next batch or run takes them), so the sweep never waits on a recipient.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

export async function expireDueInstances(db: Db, batchSize: number): Promise<{ expired: number; byTenant: Record<string, number> }> {
  const rows = await db.execute<{ tenant_id: string }>(sql`
    with due as (
      select id from form_instances
      where state in ('DRAFT', 'SENT', 'OPENED') and expires_at is not null and expires_at <= now()
      order by expires_at
      limit ${batchSize}
      for update skip locked
    )
    update form_instances f
    set state = 'EXPIRED', version = f.version + 1, updated_at = now()
    from due where f.id = due.id
    returning f.tenant_id`);
  const byTenant: Record<string, number> = {};
  for (const r of rows) byTenant[r.tenant_id] = (byTenant[r.tenant_id] ?? 0) + 1;
  return { expired: rows.length, byTenant };
}
