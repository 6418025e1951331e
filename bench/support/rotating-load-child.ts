// Child process of rotating-load.ts: autocannon with a body per request, results as one JSON line.
import autocannon from 'autocannon';
import type { RotatingLoadOptions } from './rotating-load';

const o = JSON.parse(process.argv[2] ?? '{}') as RotatingLoadOptions;
let k = 0;
const result = await autocannon({
  url: o.url,
  connections: o.connections,
  duration: o.seconds,
  requests: [
    {
      method: o.method ?? 'POST',
      headers: { 'content-type': 'application/json', ...o.headers },
      setupRequest: (req) => {
        const i = k++;
        const template = o.bodies[Math.floor(i / o.count) % o.bodies.length]!;
        return { ...req, body: template.split(o.placeholder).join(String(i % o.count)) };
      },
    },
  ],
});
process.stdout.write(`${JSON.stringify(result)}\n`);
