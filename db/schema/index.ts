export * from './access';
export * from './outbox';
