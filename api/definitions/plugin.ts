// What a capability hands the definition route factory: its lifecycle plug-in (services) plus
// where it is mounted, how its OpenAPI components are named, and its own create fields and view.
import type { z } from '@hono/zod-openapi';
import type { DefinitionsTable } from '../../db/schema/definitions';
import type { SchemaProblem } from '../../domain/definitions/schema-rules';
import type { Actor, DefinitionCapability, DefinitionDeps, RowOf } from '../../services/definitions/capability';

export interface DefinitionApi<D extends DefinitionsTable, C extends z.ZodRawShape, V extends z.ZodRawShape> {
  capability: DefinitionCapability<D>;
  /** `/api/form-definitions` */
  basePath: string;
  /** OpenAPI tag. */
  tag: string;
  /** Prefix of OpenAPI component names: `Form` gives FormDefinition, FormVersion, FormAuditEvent, ... */
  componentPrefix: string;
  /** The capability's own fields of the create body. */
  createFields: C;
  columnsOf(body: z.output<z.ZodObject<C>>): Partial<D['$inferInsert']>;
  /** Problems of the capability's own create fields (answered with the draft's, never refused). */
  createProblems?(body: z.output<z.ZodObject<C>>): SchemaProblem[];
  /** The capability's own fields of the definition view. */
  viewFields: V;
  viewOf(row: RowOf<D>): z.output<z.ZodObject<V>>;
  /** The capability's own fields a PATCH may carry besides `name` (absent: PATCH renames only). */
  patchFields?: z.ZodRawShape;
  /** Applies a PATCH's own fields (after its rename, if any) in the capability's service; its problems are answered with the draft's. */
  patch?(deps: DefinitionDeps, actor: Actor, id: string, fields: Record<string, unknown>): Promise<{ definition: RowOf<D>; problems: SchemaProblem[] }>;
  /** The capability's own options of the clone body, handed to its `cloneColumns`. */
  cloneFields?: z.ZodRawShape;
}
