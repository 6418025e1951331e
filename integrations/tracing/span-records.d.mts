import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { RootReadBatch } from './root-reads';
import type { TransferBatch } from './threaded-exporter';

export declare const readableBatch: (batch: TransferBatch) => ReadableSpan[];
export declare const ROOT_READ_FIELDS: 7;
export declare const rootReadSpans: (batch: RootReadBatch) => ReadableSpan[];
