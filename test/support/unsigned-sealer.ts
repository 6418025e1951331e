// A stand-in for the real sealer (integrations/seal, built beside this work) until it is merged:
// loads the source PDF with pdf-lib, draws nothing and saves. `sourceSha256` is real, `tsaMillis`
// 0. `failing` makes it throw on demand, for the re-seal tests. Test-only: never wired in production.
import { createHash } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import type { SealPdf, SealRequest } from '../../domain/signatures/seal-contract';

export interface UnsignedSealer {
  sealPdf: SealPdf;
  /** While true every seal throws. */
  failing: boolean;
  /** The requests it was given, newest last. */
  requests: SealRequest[];
}

export function unsignedSealer(): UnsignedSealer {
  const sealer: UnsignedSealer = {
    failing: false,
    requests: [],
    async sealPdf(request) {
      sealer.requests.push(request);
      if (sealer.failing) throw new TypeError('stand-in sealer told to fail');
      const doc = await PDFDocument.load(request.sourcePdf);
      return { pdf: await doc.save(), sourceSha256: createHash('sha256').update(request.sourcePdf).digest('hex'), tsaMillis: 0 };
    },
  };
  return sealer;
}
