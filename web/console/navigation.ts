// The console's sections, where each lives and who sees it. The access section is every member's;
// a capability's records only for those holding a live grant on one of its capabilities (the same
// rule the JSON API's guard applies: ACTIVE subscription and a grant); the platform pages only
// for operators.
import { DOCUMENT_CAPABILITIES } from '../../domain/documents/document-fields';
import type { ConsoleViewer } from './viewer';

export type ConsoleSection = 'access' | 'forms' | 'signatures' | 'documents' | 'phone' | 'calendars' | 'workflows' | 'catalog';

interface SectionDef {
  section: ConsoleSection;
  label: string;
  /** Path below /console/{tenantId}. */
  path: string;
  /** Shown when the viewer holds any of these capabilities; absent: see `operatorOnly`, else everyone. */
  capabilities?: readonly string[];
  operatorOnly?: boolean;
}

export const SECTIONS: readonly SectionDef[] = [
  { section: 'access', label: 'Access', path: '/access/my-access' },
  { section: 'forms', label: 'Forms', path: '/forms', capabilities: ['FORMS'] },
  { section: 'signatures', label: 'Signatures', path: '/signatures', capabilities: ['SIGNATURES'] },
  { section: 'documents', label: 'Documents', path: '/documents', capabilities: DOCUMENT_CAPABILITIES },
  { section: 'phone', label: 'Phone', path: '/phone', capabilities: ['PHONE'] },
  { section: 'calendars', label: 'Calendars', path: '/calendars', capabilities: ['CALENDAR', 'SLA'] },
  { section: 'workflows', label: 'Workflows', path: '/workflows', operatorOnly: true },
  { section: 'catalog', label: 'Capability catalog', path: '/catalog', operatorOnly: true },
];

/** The base of every page of one tenant. */
export const tenantBase = (tenantId: string) => `/console/${encodeURIComponent(tenantId)}`;

const holdsAny = (viewer: ConsoleViewer, codes: readonly string[]) => viewer.capabilities.some((c) => codes.includes(c.code));

/** The sections the navigation shows this viewer, in order. */
export function visibleSections(viewer: ConsoleViewer): SectionDef[] {
  return SECTIONS.filter((s) => (s.operatorOnly ? viewer.isOperator : !s.capabilities || holdsAny(viewer, s.capabilities)));
}

/** The access section's pages: the spec's labels; every member sees the first, owners and operators all five. */
export const ACCESS_PAGES = [
  { slug: 'my-access', label: 'Manage My Access', ownerOnly: false },
  { slug: 'approve-requests', label: 'Approve Requests', ownerOnly: true },
  { slug: 'members', label: 'Members', ownerOnly: true },
  { slug: 'candidate-groups', label: 'Candidate Groups', ownerOnly: true },
  { slug: 'invitations', label: 'Invitations', ownerOnly: true },
] as const;

export type AccessPage = (typeof ACCESS_PAGES)[number]['slug'];

export const accessPath = (tenantId: string, page: AccessPage) => `${tenantBase(tenantId)}/access/${page}`;
