// The steps of the lifecycle: save the draft, check in, sign off, publish, restore, the edit
// lock (checkout, release, discard), retire, unretire and undoing a soft delete.
import { createRoute, type z } from '@hono/zod-openapi';
import type { DefinitionsTable } from '../../db/schema/definitions';
import type { DefinitionDeps, Actor, RowOf } from '../../services/definitions/capability';
import { checkInDraft } from '../../services/definitions/check-in';
import { discardDraft, restoreVersion, saveDraft } from '../../services/definitions/draft';
import { checkoutDefinition, releaseDefinition } from '../../services/definitions/edit-lock';
import { publishVersion, signOffLatest } from '../../services/definitions/release-gates';
import { retireDefinition, unretireDefinition } from '../../services/definitions/retirement';
import { undeleteDefinition } from '../../services/definitions/undelete';
import { createRouter, jsonBody, jsonContent, problemResponses } from '../openapi';
import { actorOf, answer } from './context';
import { definitionGuards } from './guards';
import type { DefinitionApi } from './plugin';
import { DefinitionPath, VersionPath, type DefinitionSchemas } from './schemas';
import { definitionViews } from './views';

export function lifecycleRoutes<D extends DefinitionsTable, C extends z.ZodRawShape, V extends z.ZodRawShape>(
  api: DefinitionApi<D, C, V>,
  s: DefinitionSchemas,
) {
  const app = createRouter();
  const cap = api.capability;
  const views = definitionViews(api);
  const { writer } = definitionGuards(cap.code);
  const tags = [api.tag];
  const base = api.basePath;

  app.openapi(
    createRoute({
      method: 'put',
      path: `${base}/{id}/draft`,
      tags,
      summary: 'Save the working draft (optimistic lock on `version`)',
      description:
        'Stored whatever its problems, which are answered in `problems`. No checkout is needed, but a fresh lock of another user ' +
        "is 409 `definition-locked`; a `version` that is not the definition's current counter is 409 `version-conflict`. " +
        'Saving while holding the lock renews it.',
      middleware: writer,
      request: { params: DefinitionPath, body: jsonBody(s.DraftBody) },
      responses: { 200: jsonContent(s.Saved), ...problemResponses(400, 404, 409, 413) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      const body = c.req.valid('json');
      const saved = await saveDraft(deps, cap, actor, c.req.valid('param').id, { draftSchema: body.draftSchema, version: body.version });
      return answer(c, views.saved(saved.definition, saved.problems), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: `${base}/{id}/versions`,
      tags,
      summary: 'Check in the draft as an immutable version (max+1); releases the lock',
      description: "422 `draft-invalid` with `problems` when the draft has errors; 409 `definition-locked` under another user's fresh lock.",
      middleware: writer,
      request: { params: DefinitionPath },
      responses: { 201: jsonContent(s.VersionSummary, 'Checked in'), ...problemResponses(400, 404, 409, 422) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      return answer(c, views.versionSummary(await checkInDraft(deps, cap, actor, c.req.valid('param').id)), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: `${base}/{id}/sign-off`,
      tags,
      summary: 'Sign off the latest version (lastTestedAt mirrors it)',
      description: "Signing off an already signed-off latest version changes nothing. 409 `no-version-checked-in`; 422 `version-invalid`.",
      middleware: writer,
      request: { params: DefinitionPath },
      responses: { 200: jsonContent(s.Definition), ...problemResponses(400, 404, 409, 422) },
    }),
    async (c) => {
      const { deps, actor } = actorOf(c);
      return answer(c, views.definition(await signOffLatest(deps, cap, actor, c.req.valid('param').id)), 200);
    },
  );

  const versionStep = (
    path: string,
    summary: string,
    description: string,
    run: (deps: DefinitionDeps, actor: Actor, id: string, v: number) => Promise<RowOf<D>>,
  ) =>
    app.openapi(
      createRoute({
        method: 'post',
        path: `${base}/{id}/versions/{v}/${path}`,
        tags,
        summary,
        description,
        middleware: writer,
        request: { params: VersionPath },
        responses: { 200: jsonContent(s.Definition), ...problemResponses(400, 404, 409, 422) },
      }),
      async (c) => {
        const { deps, actor } = actorOf(c);
        const { id, v } = c.req.valid('param');
        return answer(c, views.definition(await run(deps, actor, id, v)), 200);
      },
    );

  versionStep(
    'publish',
    'Publish a signed-off version (409 unless signed off)',
    'From DRAFT, or while PUBLISHED to switch publishedVersion (consumers resolve the new one at once; instances keep theirs). ' +
      '409 `version-not-signed-off`, 409 `definition-retired`, 404 `version-not-found`, 422 `version-invalid`.',
    (deps, actor, id, v) => publishVersion(deps, cap, actor, id, v),
  );
  versionStep(
    'restore',
    'Make a version the working draft',
    "404 `version-not-found`; 409 `definition-locked` under another user's fresh lock.",
    (deps, actor, id, v) => restoreVersion(deps, cap, actor, id, v),
  );

  const definitionStep = (
    path: string,
    summary: string,
    description: string,
    run: (deps: DefinitionDeps, actor: Actor, id: string) => Promise<RowOf<D>>,
  ) =>
    app.openapi(
      createRoute({
        method: 'post',
        path: `${base}/{id}/${path}`,
        tags,
        summary,
        description,
        middleware: writer,
        request: { params: DefinitionPath },
        responses: { 200: jsonContent(s.Definition), ...problemResponses(400, 404, 409) },
      }),
      async (c) => {
        const { deps, actor } = actorOf(c);
        return answer(c, views.definition(await run(deps, actor, c.req.valid('param').id)), 200);
      },
    );

  definitionStep(
    'checkout',
    'Take the advisory edit lock',
    "Renews the caller's own lock; takes over a lock older than the capability's lock TTL; another user's fresh lock is 409 `definition-locked`.",
    (deps, actor, id) => checkoutDefinition(deps, cap, actor, id),
  );
  definitionStep(
    'release',
    'Release the edit lock',
    "The caller's own or a stale one; unlocked changes nothing; another user's fresh lock is 409 `definition-locked`.",
    (deps, actor, id) => releaseDefinition(deps, cap, actor, id),
  );
  definitionStep(
    'discard',
    'Return the draft to the last checked-in version and release the lock',
    "409 `no-version-checked-in`; 409 `definition-locked` under another user's fresh lock.",
    (deps, actor, id) => discardDraft(deps, cap, actor, id),
  );
  definitionStep(
    'retire',
    'Retire (RETIRED; publishedVersion is kept)',
    'Retiring a RETIRED definition changes nothing.',
    (deps, actor, id) => retireDefinition(deps, cap, actor, id),
  );
  definitionStep(
    'unretire',
    'Unretire: back to PUBLISHED when a version is published, else DRAFT',
    '409 `definition-not-retired` unless RETIRED.',
    (deps, actor, id) => unretireDefinition(deps, cap, actor, id),
  );
  definitionStep(
    'restore',
    'Undo a soft delete',
    'The definition is live again (code, draft, versions and status as they were; the lock stays cleared); audited `undeleted`. ' +
      'A live definition changes nothing. A purged one is gone: 404. To make a version the draft: POST .../versions/{v}/restore.',
    (deps, actor, id) => undeleteDefinition(deps, cap, actor, id),
  );

  return app;
}
