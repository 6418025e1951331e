/**
 * Personal data the fixtures send that must never reach a log line: test/log-scan fails the run
 * when one of them appears in the suite's logs. Distinctive, so a match is never a coincidence.
 */
export const PII_SENTINELS = {
  email: 'ottilie.sentinelle@pii-sentinel.example',
  name: 'Ottilie Sentinelle-Quarz',
  phone: '+493055501987',
} as const;

/**
 * Every value the log scan looks for: the sentinels, the customer numbers the phone tests call, and
 * the prefix of every webhook signing secret (no secret the suite creates may reach a log line).
 */
export const FIXTURE_PII: readonly string[] = [
  ...Object.values(PII_SENTINELS),
  'whsec_',
  '+14155550100',
  '+14155550142',
  '+14155550177',
  '+14155550199',
];
