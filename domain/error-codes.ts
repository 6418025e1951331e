// Every problem `code` the service answers with, and its one HTTP status. AppError takes its
// status from here, so a code cannot answer differently in two places, and the README's error
// table is generated from it (`npx tsx scripts/error-table.ts --write`) and held to it by a test.

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 416 | 422 | 423 | 429 | 500 | 502 | 503 | 504;

export interface ErrorCodeDef {
  status: ErrorStatus;
  /** One sentence for the README. */
  meaning: string;
}

export const errorCodes = {
  'missing-header': { status: 400, meaning: 'A required header (`X-Tenant-Id`, `X-User-Id`, ...) is absent; `header` names it.' },
  'malformed-header': { status: 400, meaning: 'A header does not have its expected form (identity headers, `If-Match`); `header` names it.' },
  'malformed-request': { status: 400, meaning: 'The body is not valid JSON.' },
  'validation-failed': { status: 400, meaning: "Input the route's schema refuses; `errors[]` gives each field path and message." },
  'conflicting-credentials': { status: 400, meaning: 'Both HTTP Basic credentials and `X-User-Id` were sent; an identity is never picked silently.' },
  'invalid-cursor': { status: 400, meaning: 'The `cursor` is not a `nextCursor` this list issued.' },
  'list-selector-required': { status: 400, meaning: 'A document list needs exactly one selector: `processRef`, `taskId`, or `capability` with `ownerEntityId`.' },
  'malformed-multipart': { status: 400, meaning: 'The multipart body or its boundary is malformed or incomplete.' },
  'field-after-file': { status: 400, meaning: 'An upload field came after the file part; fields go first.' },
  'field-too-long': { status: 400, meaning: 'An upload field or its name is longer than allowed.' },
  'too-many-parts': { status: 400, meaning: 'An upload has one file part and at most ten fields.' },
  'file-part-missing': { status: 400, meaning: 'The upload has no file part.' },
  'file-part-name': { status: 400, meaning: 'The file part of an upload must be named `file`.' },
  'filename-required': { status: 400, meaning: 'The file part of an upload needs a filename.' },
  'multipart-trailing-data': { status: 400, meaning: 'Data follows the file part; the file must be the last part.' },
  'invalid-document-input': { status: 400, meaning: 'A document field breaks a registry rule; `field` and `reason` say which.' },
  'kind-capability-mismatch': { status: 400, meaning: 'The document kind belongs to another capability.' },
  'version-required': { status: 400, meaning: 'Re-authorizing a document needs its version.' },
  'retention-required': { status: 400, meaning: "A READY document needs its capability's object-lock retention." },
  'invalid-customer-number': { status: 400, meaning: 'The customer number of a call is not E.164.' },
  'field-not-editable': { status: 400, meaning: 'A value for a field whose outbound role forbids it: the recipient changed a PREPARER field, or a send prefilled a RECIPIENT field; `errors[]` names each.' },
  'form-schema-invalid': { status: 400, meaning: 'The form schema sent to render has error-level problems (`problems[]`).' },
  'calendar-invalid-input': { status: 400, meaning: 'The calendar engine refused an input (time zone, time, date, budget, instant, country); `errors[]` gives field paths where known.' },
  'calendar-span-too-large': { status: 400, meaning: 'An availability range is longer than the engine allows.' },

  'authentication-required': { status: 401, meaning: 'A route open to API clients got neither HTTP Basic credentials nor the gateway identity.' },
  'invalid-credentials': { status: 401, meaning: 'The HTTP Basic credentials are malformed, unknown, revoked, of another tenant, or wrong.' },
  'internal-key-invalid': { status: 401, meaning: '`X-Internal-Key` is missing or wrong on an internal route.' },
  'webhook-secret-invalid': { status: 401, meaning: '`X-Voice-Secret` is missing or wrong while the webhook requires it.' },

  'not-a-member': { status: 403, meaning: 'The caller is not a member of the tenant (platform operators may still administer it).' },
  'owner-required': { status: 403, meaning: 'Only an owner of the tenant or a platform operator may do this.' },
  'operator-required': { status: 403, meaning: 'Only a platform operator may change the capability catalog.' },
  'self-approval': { status: 403, meaning: 'An access request is decided by another owner or an operator, never its requester.' },
  'not-requester': { status: 403, meaning: 'Only the requester may cancel an access request.' },
  'capability-not-subscribed': { status: 403, meaning: 'The tenant has no ACTIVE subscription to the capability (guard layer 1, call placement).' },
  'capability-not-granted': { status: 403, meaning: 'The caller has no grant on the capability (guard layer 2).' },
  'capability-write-required': { status: 403, meaning: 'A write needs a `read-write` grant; the caller holds `read`.' },
  'internal-api-disabled': { status: 403, meaning: 'Internal routes are off: the `internal.key` setting is blank.' },
  'document-context-required': { status: 403, meaning: 'A SIGNATURES or EMAIL document needs a started process for its `processRef`.' },
  'document-out-of-scope': { status: 403, meaning: 'A service principal (embed token holder, signer) asked for a document outside its processRef, kind or own uploads.' },

  'route-not-found': { status: 404, meaning: 'No route for this method and path.' },
  'tenant-not-found': { status: 404, meaning: 'The tenant does not exist, or `{t}` is not the `X-Tenant-Id` tenant.' },
  'capability-not-found': { status: 404, meaning: 'The capability is not in the catalog.' },
  'subscription-not-found': { status: 404, meaning: 'The tenant has no subscription to the capability.' },
  'grant-not-found': { status: 404, meaning: 'The user has no grant on the capability.' },
  'member-not-found': { status: 404, meaning: 'The user is not a member of the tenant.' },
  'owner-not-found': { status: 404, meaning: 'The user is not an owner of the tenant.' },
  'access-request-not-found': { status: 404, meaning: 'No such access request in the tenant.' },
  'invitation-not-found': { status: 404, meaning: 'The invitation or its token is unknown or revoked.' },
  'group-not-found': { status: 404, meaning: 'No such role group in the tenant.' },
  'group-member-not-found': { status: 404, meaning: 'The user is not in the role group.' },
  'api-client-not-found': { status: 404, meaning: 'No such active API client in the tenant.' },
  'phone-call-not-found': { status: 404, meaning: "The phone call is unknown or another tenant's." },
  'phone-number-not-found': { status: 404, meaning: "The phone number is unknown or another tenant's." },
  'calendar-not-found': { status: 404, meaning: 'The tenant has no calendar with this code.' },
  'location-not-found': { status: 404, meaning: 'The calendar has no location with this code.' },
  'business-hours-not-found': { status: 404, meaning: 'No such business-hours entry at the location.' },
  'holiday-not-found': { status: 404, meaning: 'No such holiday at the location.' },
  'process-calendar-not-found': { status: 404, meaning: 'No calendar association for this process definition key.' },
  'document-not-found': { status: 404, meaning: "The document is unknown or another tenant's." },
  'form-instance-not-found': { status: 404, meaning: "The form instance is unknown or another tenant's." },
  'recipient-form-not-found': { status: 404, meaning: 'A recipient route: the instance token is unknown, expired or not an open outbound form, or the code or access token is missing, wrong or expired (all indistinguishable).' },
  'embed-form-not-found': { status: 404, meaning: 'A public embed token is unknown, badly signed, rotated, or its form is not published, retired, deleted or outbound (all indistinguishable).' },
  'definition-not-found': { status: 404, meaning: "The form or signature definition is unknown, another tenant's, or deleted." },
  'version-not-found': { status: 404, meaning: 'The definition has no checked-in version with this number.' },

  'tenant-exists': { status: 409, meaning: 'A tenant with this id already exists.' },
  'capability-exists': { status: 409, meaning: 'A capability with this code already exists.' },
  'capability-retired': { status: 409, meaning: 'A retired capability cannot be subscribed.' },
  'tenant-not-subscribed': { status: 409, meaning: 'A grant needs an ACTIVE subscription of the tenant to the capability.' },
  'already-granted': { status: 409, meaning: 'The requester already holds the requested level or higher.' },
  'request-already-open': { status: 409, meaning: 'An open access request for the capability exists already.' },
  'request-not-pending': { status: 409, meaning: 'The access request is no longer PENDING.' },
  'last-owner': { status: 409, meaning: 'The only remaining owner cannot be removed or demoted.' },
  'invitation-used': { status: 409, meaning: 'The invitation has already been accepted.' },
  'group-exists': { status: 409, meaning: 'A role group with this name already exists.' },
  'phone-number-exists': { status: 409, meaning: 'The provider number is registered already.' },
  'phone-settings-conflict': { status: 409, meaning: 'The phone settings changed since they were read.' },
  'calendar-exists': { status: 409, meaning: 'The tenant has a calendar with this code already.' },
  'calendar-in-use': { status: 409, meaning: 'A process association uses the calendar; delete that first.' },
  'calendar-inactive-calendar': { status: 409, meaning: 'The calendar is not active, so it calculates nothing.' },
  'location-exists': { status: 409, meaning: 'The calendar has a location with this code already.' },
  'process-calendar-exists': { status: 409, meaning: 'The process definition key has a calendar association already.' },
  'process-calendar-inactive': { status: 409, meaning: "The process definition key's calendar association is not active." },
  'form-not-published': { status: 409, meaning: 'The form definition has no published version to create an instance from (DRAFT or RETIRED).' },
  'instance-state-conflict': { status: 409, meaning: 'The form instance is not in a state that allows this step (`state` says which it is in).' },
  'version-conflict': { status: 409, meaning: 'The document or definition changed since it was read (optimistic lock); reload and retry.' },
  'document-not-pending': { status: 409, meaning: 'Only a PENDING document can be finalized or re-authorized.' },
  'document-context-changed': { status: 409, meaning: 'A re-authorized document keeps its `processRef` and capability.' },
  'document-not-ready': { status: 409, meaning: 'Only a READY document can be downloaded.' },
  'document-already-deleted': { status: 409, meaning: 'The document is already DELETED.' },
  'process-already-started': { status: 409, meaning: 'Another process instance is recorded for this `processRef`.' },
  'definition-locked': { status: 409, meaning: 'Another user holds a fresh edit lock on the definition; `lockedBy` and `lockedAt` say whose and since when.' },
  'version-not-signed-off': { status: 409, meaning: 'Only a signed-off version can be published.' },
  'no-version-checked-in': { status: 409, meaning: 'The definition has no checked-in version yet (sign-off, discard and clone need one).' },
  'definition-retired': { status: 409, meaning: 'The definition is RETIRED; unretire it first (publish).' },
  'definition-not-retired': { status: 409, meaning: 'Only a RETIRED definition can be unretired.' },

  'invitation-expired': { status: 410, meaning: 'The invitation has expired.' },
  'payload-too-large': { status: 413, meaning: 'A request body (webhook, definition draft) is above its size bound.' },
  'document-too-large': { status: 413, meaning: 'An upload is above the `docstore.max-bytes` cap, counted on the stream.' },
  'multipart-required': { status: 415, meaning: 'A document upload must be `multipart/form-data`.' },
  'unsupported-media-type': { status: 415, meaning: 'A JSON route got a body whose Content-Type is not `application/json`.' },
  'range-not-satisfiable': { status: 416, meaning: "The requested byte range is outside the document's size." },

  'requested-capability-not-subscribed': { status: 422, meaning: 'An access request names a capability the tenant has no ACTIVE subscription to.' },
  'user-not-a-member': { status: 422, meaning: 'The user a grant or group membership is for is not a member of the tenant.' },
  'capability-unknown': { status: 422, meaning: 'An access request names a capability that is unknown or retired.' },
  'api-client-role-fixed': { status: 422, meaning: 'An API client cannot be an owner or change its role.' },
  'unknown-calendar': { status: 422, meaning: 'The body names a calendar the tenant does not have.' },
  'unknown-phone-number': { status: 422, meaning: 'The body names a phone number registered to another tenant.' },
  'location-country-missing': { status: 422, meaning: 'The location has no country to import holidays for.' },
  'holiday-data-unavailable': { status: 422, meaning: "There is no holiday data for the location's country or region." },
  'calendar-unreachable': { status: 422, meaning: 'The SLA budget cannot be consumed within the horizon (for example, no business hours).' },
  'assistant-unresolved': { status: 422, meaning: 'No `assistantId` was given and the tenant has no default assistant.' },
  'phone-number-unresolved': { status: 422, meaning: 'No `phoneNumberId` was given and the tenant has no default number.' },
  'provider-key-missing': { status: 422, meaning: 'No voice provider key: the tenant connected none and no global fallback is set.' },
  'provider-key-rejected': { status: 422, meaning: 'The voice provider refused the API key.' },
  'provider-rejected': { status: 422, meaning: 'The voice provider refused the input.' },
  'draft-invalid': { status: 422, meaning: 'The draft has error-level schema problems (`problems[]`), so it cannot be checked in.' },
  'version-invalid': { status: 422, meaning: 'The version has error-level problems under the current schema rules (`problems[]`), so it cannot be signed off or published.' },

  'document-quarantined': { status: 423, meaning: 'The document is QUARANTINED by the malware scan.' },

  'rate-limited': { status: 429, meaning: 'Too many public requests (embed submissions, recipient code requests and verifications) from this address or for this token; retry after `Retry-After` seconds.' },

  'internal-error': { status: 500, meaning: 'An unexpected failure; it is logged, and it is always a bug.' },
  'provider-unreachable': { status: 502, meaning: 'The voice provider could not be reached.' },
  'provider-invalid-response': { status: 502, meaning: 'The voice provider answered something unusable.' },
  'provider-error': { status: 502, meaning: 'The voice provider failed (5xx).' },
  'secrets-unavailable': { status: 503, meaning: 'Secret storage is not configured (`secrets.master-key` is unset).' },
  'provider-key-unreadable': { status: 503, meaning: 'The stored provider key cannot be opened; connect it again.' },
  'provider-rate-limited': { status: 503, meaning: 'The voice provider is rate-limiting this account.' },
  'registry-unavailable': { status: 503, meaning: 'The remote document registry did not answer usably.' },
  'render-queue-full': { status: 503, meaning: 'Submission PDF renders are saturated on this node (one at a time behind a bounded queue); retry after `Retry-After` seconds.' },
  'renderer-unavailable': { status: 503, meaning: 'Headless Chromium could not be started or crashed during a render.' },
  'render-timed-out': { status: 503, meaning: 'A submission PDF render did not finish within `render.timeout-ms`.' },
  'storage-unavailable': { status: 503, meaning: 'Object storage is not configured or did not accept or return the bytes.' },
  'embed-key-missing': { status: 503, meaning: 'Embed tokens cannot be issued: the setting `forms.embed-key` is unset.' },
  'provider-timeout': { status: 504, meaning: 'The voice provider did not answer in time.' },
} as const satisfies Record<string, ErrorCodeDef>;

export type ErrorCode = keyof typeof errorCodes;

/** The codes whose status is `S`: helpers named after a status accept only these. */
export type CodeWithStatus<S extends ErrorStatus> = {
  [K in ErrorCode]: (typeof errorCodes)[K]['status'] extends S ? K : never;
}[ErrorCode];

export const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(errorCodes, code);

export const statusOf = (code: ErrorCode): ErrorStatus => errorCodes[code].status;
