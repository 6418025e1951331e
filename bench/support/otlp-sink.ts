// A local OTLP/HTTP endpoint that accepts every export and drops it (bench only): the exporter's
// full cost (serialising, posting) is paid, nothing is stored. GET answers how many exports came.
// Prints `{"port":N}` once listening; exits when stdin closes.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

let exports = 0;
const server = createServer((req, res) => {
  if (req.method === 'GET') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ exports }));
  req.resume();
  req.on('end', () => {
    exports++;
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`));
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
