// Object-lock retention per capability, verified on the exact stored version with
// GetObjectRetention, and the delete semantics (marker when retained, purge when never retained).
import { GetObjectLockConfigurationCommand, GetObjectRetentionCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_KEY, useTestApp } from '../../support/app';
import { docApi, documentRow, formFields, ResponseRecorder, s3State, seedDocTenant, testS3Client } from '../../support/documents';
import { uniqueId } from '../../support/fixtures';

const s3 = testS3Client();
const DAY = 86_400_000;

describe('retention per capability and delete semantics (real S3 object lock)', () => {
  // EMAIL has no retention in this file: 0 days means never retained.
  const ctx = useTestApp({ 'docstore.max-bytes': 64 * 1024, 'docstore.retention-days.email': 0, deps: { s3 } });
  const rec = new ResponseRecorder();
  const api = docApi(() => ctx.app, rec, INTERNAL_KEY);
  const bucket = () => ctx.settings['s3.bucket'];
  let t: Awaited<ReturnType<typeof seedDocTenant>>;
  const P = 'case-ret';

  beforeAll(async () => {
    t = await seedDocTenant(ctx);
    expect((await api.post('/api/documents/process-started', t.as('writer'), { processRef: P, processInstanceId: 'run-ret' })).status).toBe(200);
  });

  const upload = async (capability: string, kind: string, processRef = P) => {
    const res = await api.upload(t.as('writer'), {
      fields: formFields(processRef, { capability, kind }),
      file: { filename: `${capability}.pdf`, data: Buffer.from(`${capability} bytes`) },
    });
    expect(res.status, res.text).toBe(201);
    const row = (await documentRow(ctx, res.json.id))!;
    return { view: res.json, row, key: `${t.id}/${row.storageKey}` };
  };
  const retentionOf = async (key: string, versionId: string) => {
    try {
      const out = await s3.send(new GetObjectRetentionCommand({ Bucket: bucket(), Key: key, VersionId: versionId }));
      return out.Retention ?? null;
    } catch (err) {
      // SeaweedFS: a version without retention answers 404 (ObjectLockConfigurationNotFoundError).
      if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
      throw err;
    }
  };

  describe('retention is set on the exact version at finalize', () => {
    const cases: Array<[string, string, 'GOVERNANCE' | 'COMPLIANCE', number]> = [
      ['FORMS', 'FORM_ATTACHMENT', 'GOVERNANCE', 365],
      ['SIGNATURES', 'SIGNATURE_ATTACHMENT', 'COMPLIANCE', 3650],
    ];
    for (const [capability, kind, mode, days] of cases) {
      it(`${capability}: ${mode} for ${days} days, recorded on the row with the version id`, async () => {
        const before = Date.now();
        const { view, row, key } = await upload(capability, kind);
        expect(view).toMatchObject({ retentionMode: mode, status: 'READY' });
        expect(row.storageVersionId).toEqual(expect.any(String));
        const until = new Date(view.retainUntil).getTime();
        expect(until).toBeGreaterThanOrEqual(before + days * DAY - 1000);
        expect(until).toBeLessThanOrEqual(Date.now() + days * DAY + 1000);
        const retention = await retentionOf(key, row.storageVersionId!);
        expect(retention?.Mode).toBe(mode);
        expect(retention?.RetainUntilDate?.getTime()).toBe(until);
      });
    }

    it('EMAIL with retention-days 0: no retention on the version, retainUntil null', async () => {
      const { view, row, key } = await upload('EMAIL', 'GENERIC');
      expect(view).toMatchObject({ retentionMode: null, retainUntil: null, status: 'READY' });
      expect(await retentionOf(key, row.storageVersionId!)).toBeNull();
    });

    it('the bucket carries no default retention (a default would lock files that later fail the scan)', async () => {
      const conf = await s3.send(new GetObjectLockConfigurationCommand({ Bucket: bucket() })).catch(() => null);
      expect(conf?.ObjectLockConfiguration?.Rule?.DefaultRetention).toBeUndefined();
    });
  });

  describe('delete', () => {
    it('retained (GOVERNANCE): soft delete, then a plain delete — a delete marker hides the key, the locked version stays', async () => {
      const { view, row, key } = await upload('FORMS', 'FORM_ATTACHMENT', uniqueId('del-gov'));
      const res = await api.del(`/api/documents/${view.id}`, t.as('writer'));
      expect(res.status, res.text).toBe(200);
      expect(res.json).toMatchObject({ status: 'DELETED', deletedAt: expect.any(String) });
      const state = await s3State(s3, bucket(), key);
      expect(state.deleteMarkers).toEqual([{ key, latest: true }]);
      expect(state.versions.map((v) => v.versionId)).toEqual([row.storageVersionId]);
      expect((await retentionOf(key, row.storageVersionId!))?.Mode).toBe('GOVERNANCE');
      expect((await documentRow(ctx, view.id))!.status).toBe('DELETED');
    });

    it('retained (COMPLIANCE): the delete never fails the request; a marker is added, the version stays', async () => {
      const { view, row, key } = await upload('SIGNATURES', 'SIGNATURE_ATTACHMENT');
      const res = await api.del(`/api/documents/${view.id}`, t.as('writer'));
      expect(res.status, res.text).toBe(200);
      const state = await s3State(s3, bucket(), key);
      expect(state.deleteMarkers).toHaveLength(1);
      expect(state.versions.map((v) => v.versionId)).toEqual([row.storageVersionId]);
    });

    it('never retained: every version of exactly that key is purged (no marker left), neighbours untouched', async () => {
      const { view, key } = await upload('EMAIL', 'GENERIC');
      const neighbour = await upload('EMAIL', 'GENERIC');
      // Extra versions at the same key and a key that shares its prefix.
      await s3.send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: Buffer.from('second version') }));
      await s3.send(new PutObjectCommand({ Bucket: bucket(), Key: `${key}-sibling`, Body: Buffer.from('sibling') }));
      const res = await api.del(`/api/documents/${view.id}`, t.as('writer'));
      expect(res.status, res.text).toBe(200);
      expect(await s3State(s3, bucket(), key)).toEqual({
        versions: [{ key: `${key}-sibling`, versionId: expect.any(String), size: 7, latest: true }],
        deleteMarkers: [],
        uploads: [],
      });
      expect((await s3State(s3, bucket(), neighbour.key)).versions).toHaveLength(1);
    });

    it('a storage failure while dropping the object never fails the request (the row is DELETED)', async () => {
      const { view, row, key } = await upload('FORMS', 'FORM_ATTACHMENT', uniqueId('del-fail'));
      // Make the registry believe it was never retained: the purge then hits a locked version and S3 refuses.
      await ctx.db.sql`update documents set retention_mode = null where id = ${view.id}`;
      const res = await api.del(`/api/documents/${view.id}`, t.as('writer'));
      expect(res.status, res.text).toBe(200);
      expect((await documentRow(ctx, view.id))!.status).toBe('DELETED');
      expect((await s3State(s3, bucket(), key)).versions.map((v) => v.versionId)).toContain(row.storageVersionId);
    });

    it('a read grant may not delete (403 capability-write-required); nothing is touched', async () => {
      const { view, key } = await upload('FORMS', 'FORM_ATTACHMENT', uniqueId('del-ro'));
      const res = await api.del(`/api/documents/${view.id}`, t.as('reader'));
      expect(res.status).toBe(403);
      expect(res.json.code).toBe('capability-write-required');
      expect((await s3State(s3, bucket(), key)).deleteMarkers).toEqual([]);
    });
  });

  it('storage-key leak check: no response of this file carried a storage key', async () => {
    await rec.expectNoStorageKeys(ctx);
  });
});
