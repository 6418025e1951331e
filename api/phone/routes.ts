import { createRouter } from '../openapi';
import { callRoutes } from './call-routes';
import { numberRoutes } from './number-routes';
import { policyRoutes } from './policy-routes';
import { settingsRoutes } from './settings-routes';
import { webhookRoutes } from './webhook-routes';

/** Every route of the spec's phone table. */
export function phoneRoutes() {
  const app = createRouter();
  app.route('/', callRoutes());
  app.route('/', numberRoutes());
  app.route('/', settingsRoutes());
  app.route('/', policyRoutes());
  app.route('/', webhookRoutes());
  return app;
}
