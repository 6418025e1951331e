export * from './access';
export * from './outbox';
export * from './secrets';
