import { definitionRoutes } from '../definitions/routes';
import type { DocumentsRuntime } from '../documents/runtime';
import { createRouter } from '../openapi';
import { signatureDefinitionApi } from './definition-plugin';
import { sourceDocumentRoutes } from './document-routes';
import { instanceRoutes } from './instance-routes';
import { reachableSigner } from '../../services/signatures/signer-access';
import { publicSignRoutes } from './public-sign-routes';
import { signPageRoutes } from './sign-page-routes';

/** Signatures routes: the definitions lifecycle, the source PDF, campaigns, public signing and the hosted signing page. */
export function signatureRoutes(documents: DocumentsRuntime) {
  const app = createRouter();
  app.route('/', definitionRoutes(signatureDefinitionApi));
  app.route('/', sourceDocumentRoutes(documents));
  app.route('/', instanceRoutes(documents));
  app.route('/', publicSignRoutes(documents));
  // The page opens exactly where the public session would: the same loader, without marking it opened.
  app.route(
    '/',
    signPageRoutes(async ({ db, clock }, token) => {
      const signer = await reachableSigner(db, token, clock?.() ?? new Date());
      return signer && { codeFirst: signer.recipient.verify === 'EMAIL_OTP' };
    }),
  );
  return app;
}
