// Start-on-demand servers for `npm start` and the test suite's global setup.
export { ensureTool, PROJECT_ROOT, TOOLS_DIR, TEMPORAL_CLI_PIN, SEAWEEDFS_PIN, TEMPORAL_TEST_SERVER_PIN } from './tools.js';
export type { ToolName, EnsureToolOptions } from './tools.js';
export { getFreePort, stopAllServers, spawnServer, waitForPort, waitForHttp, waitUntilReady, isPortOpen, FatalReadinessError } from './child-process.js';
export type { ServerChild, SpawnServerOptions, WaitOptions } from './child-process.js';
export { startEmbeddedPostgres } from './postgres.js';
export type { EmbeddedPostgres, EmbeddedPostgresOptions } from './postgres.js';
export { startTemporalDevServer, timeSkippingServerPath } from './temporal.js';
export type { TemporalDevServer, TemporalDevServerOptions } from './temporal.js';
export { startSeaweed } from './seaweed.js';
export type { SeaweedServer, SeaweedOptions } from './seaweed.js';
