// A TCP relay in front of the suite's real PostgreSQL that ends its first session the way a server
// shutting down does, at the moment the driver is most exposed: the server's FATAL 57P01 arrives in
// the same read as the startup's ReadyForQuery (a busy client reads both at once), and the socket
// closes when the driver sends its array-types query. Later sessions are relayed untouched.
import net from 'node:net';

const field = (code: string, value: string) => Buffer.from(`${code}${value}\0`);
const body = Buffer.concat([
  field('S', 'FATAL'),
  field('V', 'FATAL'),
  field('C', '57P01'),
  field('M', 'terminating connection due to administrator command'),
  Buffer.from([0]),
]);
const length = Buffer.alloc(4);
length.writeInt32BE(body.length + 4);
/** An ErrorResponse message, as the server sends it to every session when it shuts down fast. */
const FATAL_57P01 = Buffer.concat([Buffer.from('E'), length, body]);
/** ReadyForQuery, idle: the end of a session's startup. */
const READY_IDLE = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);
/** The driver's first statement on a new session (postgres `fetch_types`). */
const ARRAY_TYPES_QUERY = 'pg_catalog.pg_type';

export interface StartupFaultRelay {
  port: number;
  /** Sessions opened through the relay; the first is the one that is faulted. */
  sessions(): number;
  close(): Promise<void>;
}

export async function startStartupFaultRelay(target: { host: string; port: number }): Promise<StartupFaultRelay> {
  let sessions = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    const faulted = sessions++ === 0;
    let fatalSent = false;
    client.on('data', (chunk) => {
      if (fatalSent && chunk.includes(ARRAY_TYPES_QUERY)) {
        client.destroy();
        upstream.destroy();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (faulted && !fatalSent && chunk.includes(READY_IDLE)) {
        fatalSent = true;
        client.write(Buffer.concat([chunk, FATAL_57P01]));
        return;
      }
      client.write(chunk);
    });
    for (const [a, b] of [[client, upstream], [upstream, client]] as const) {
      a.on('error', () => b.destroy());
      a.on('close', () => b.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    sessions: () => sessions,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
