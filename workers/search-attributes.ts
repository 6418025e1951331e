// Start-up of a worker on a Temporal server we did not start (TEMPORAL_ADDRESS pointing
// elsewhere): the platform's search attributes are registered before any workflow sets them.
import { isGrpcServiceError, type Connection } from '@temporalio/client';
import { SEARCH_ATTRIBUTE_NAMES } from '../workflows/search-attributes';

// temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD; the proto
// package is only a transitive dependency, so the wire value is spelled here.
const INDEXED_VALUE_TYPE_KEYWORD = 2;
const GRPC_ALREADY_EXISTS = 6;

/** Registers the platform's search attributes (as Keyword) that the namespace lacks. Idempotent. */
export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<void> {
  const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
  const missing = SEARCH_ATTRIBUTE_NAMES.filter((name) => !customAttributes?.[name]);
  if (missing.length === 0) return;
  try {
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((name) => [name, INDEXED_VALUE_TYPE_KEYWORD])),
    });
  } catch (err) {
    // Another process registered them between our list and add.
    if (!(isGrpcServiceError(err) && err.code === GRPC_ALREADY_EXISTS)) throw err;
  }
}
