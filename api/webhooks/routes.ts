import { createRouter } from '../openapi';
import { deliveryRoutes } from './delivery-routes';
import { endpointRoutes } from './endpoint-routes';

/** Outbound webhooks: endpoints, their delivery log, replay, the test event and the catalog. */
export function outboundWebhookRoutes() {
  const app = createRouter();
  app.route('/', endpointRoutes());
  app.route('/', deliveryRoutes());
  return app;
}
