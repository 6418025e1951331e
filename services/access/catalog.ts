import type { Db } from '../../db/client';
import {
  getCapability,
  insertCapability,
  listCapabilities,
  retireCapability,
  upsertCapability,
  type CapabilityInput,
} from '../../db/queries/catalog';
import { conflict, notFound } from '../../domain/errors';

/** The global capability catalog, by code. */
export async function listCatalog(db: Db) {
  return listCapabilities(db);
}

export async function getCatalogEntry(db: Db, input: { code: string }) {
  const row = await getCapability(db, input.code);
  if (!row) throw notFound('Capability', 'capability-not-found');
  return row;
}

export async function createCatalogEntry(db: Db, input: CapabilityInput) {
  const row = await insertCapability(db, input);
  if (!row) throw conflict('capability-exists', 'A capability with this code already exists');
  return row;
}

/** Create or replace; `inserted` tells which happened. */
export async function putCatalogEntry(db: Db, input: CapabilityInput) {
  return upsertCapability(db, input);
}

/** Soft retirement: subscriptions stay, new ones are refused. */
export async function retireCatalogEntry(db: Db, input: { code: string }) {
  const row = await retireCapability(db, input.code);
  if (!row) throw notFound('Capability', 'capability-not-found');
  return row;
}
