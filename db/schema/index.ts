export * from './access';
export * from './outbox';
export * from './secrets';
export * from './phone';
export * from './documents';
export * from './calendars';
export * from './api-clients';
export * from './forms';
