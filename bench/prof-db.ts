import { startBenchDatabase } from './support/servers';
const b = await startBenchDatabase();
console.log(b.url);
process.stdin.resume();
process.stdin.on('end', async () => { await b.stop(); process.exit(0); });
