// Object-lock retention per capability (spec Limits: COMPLIANCE for SIGNATURES, GOVERNANCE
// otherwise). Horizons are settings; 0 days means the capability's documents are not retained.
import type { Settings } from '../settings';

export type RetentionMode = 'GOVERNANCE' | 'COMPLIANCE';

export interface RetentionPlan {
  mode: RetentionMode;
  days: number;
}

export type RetentionDays = Readonly<Record<string, number>>;

const DAY_MS = 86_400_000;

export function retentionModeFor(capability: string): RetentionMode {
  return capability === 'SIGNATURES' ? 'COMPLIANCE' : 'GOVERNANCE';
}

/** The plan for a capability, or null when its horizon is 0 (or unknown). */
export function retentionPlan(capability: string, days: RetentionDays): RetentionPlan | null {
  const d = days[capability] ?? 0;
  if (!Number.isInteger(d) || d <= 0) return null;
  return { mode: retentionModeFor(capability), days: d };
}

/** The plan of a capability's documents under these settings (null: not retained). */
export function retentionPlanFor(settings: Settings, capability: string): RetentionPlan | null {
  return retentionPlan(capability, {
    FORMS: settings['docstore.retention-days.forms'],
    SIGNATURES: settings['docstore.retention-days.signatures'],
    EMAIL: settings['docstore.retention-days.email'],
  });
}

/** now + days, to the whole second (S3 retain-until dates carry no milliseconds). */
export function retainUntilFrom(now: Date, days: number): Date {
  return new Date(Math.ceil((now.getTime() + days * DAY_MS) / 1000) * 1000);
}
