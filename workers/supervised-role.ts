// The host of one supervised role (workers/supervisor.ts): runs the entry point given as its
// argument in this process. When the supervisor goes away without stopping it (killed, say), the
// IPC channel closes and the role shuts down as on SIGTERM, so no role outlives its supervisor.
import { pathToFileURL } from 'node:url';

const entry = process.argv[2];
if (!entry) throw new Error('supervised-role: the entry point is missing');
process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
await import(pathToFileURL(entry).href);
