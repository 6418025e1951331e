import { definitionRoutes } from '../definitions/routes';
import { formDefinitionApi } from './definition-plugin';

/** Forms routes built so far: the definitions lifecycle at /api/form-definitions. */
export function formRoutes() {
  return definitionRoutes(formDefinitionApi);
}
