// The production sealer (integrations/seal) for the ceremony tests: the organisation's chain made with
// the OpenSSL CLI, the local RFC 3161 stand-in as the timestamp authority, and a record of every
// request. `failing` turns the authority's answers into 503s, so a seal fails the way it does in
// production (timestamp-unavailable), not by a thrown test error.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { SealPdf, SealRequest } from '../../domain/signatures/seal-contract';
import { createSealer } from '../../integrations/seal/seal';
import { startTsa, type TsaStandIn } from '../stand-ins/tsa/server';
import { makeOrgChain, sealSettings, type OrgChain } from './seal';

export interface RecordingSealer {
  sealPdf: SealPdf;
  /** While true the timestamp authority answers 503 and every seal fails. */
  failing: boolean;
  /** The requests it was given, newest last. */
  requests: SealRequest[];
  tsa: TsaStandIn;
  org: OrgChain;
  /** A scratch directory for the outside-tool checks of sealed PDFs. */
  dir: string;
  stop(): Promise<void>;
}

export async function recordingSealer(): Promise<RecordingSealer> {
  const dir = await mkdtemp(join(tmpdir(), 'ceremony-seal-'));
  const [tsa, org] = await Promise.all([startTsa(), makeOrgChain(dir)]);
  const seal = createSealer({ settings: sealSettings(tsa, org, dir), logger: pino({ level: 'silent' }) });
  const sealer: RecordingSealer = {
    failing: false,
    requests: [],
    tsa,
    org,
    dir,
    async sealPdf(request) {
      sealer.requests.push(request);
      tsa.behave(sealer.failing ? 'fail' : 'ok');
      return seal(request);
    },
    async stop() {
      await tsa.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return sealer;
}
