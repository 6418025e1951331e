import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Registered on every Temporal server the platform uses; operators filter the Web UI by them. */
export const TenantIdKey = defineSearchAttributeKey('TenantId', SearchAttributeType.KEYWORD);
export const CapabilityKey = defineSearchAttributeKey('Capability', SearchAttributeType.KEYWORD);
export const BusinessKeyKey = defineSearchAttributeKey('BusinessKey', SearchAttributeType.KEYWORD);

export const SEARCH_ATTRIBUTE_KEYS = [TenantIdKey, CapabilityKey, BusinessKeyKey] as const;
export const SEARCH_ATTRIBUTE_NAMES = SEARCH_ATTRIBUTE_KEYS.map((k) => k.name);
