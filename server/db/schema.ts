/**
 * Table types for Kysely. Dates are ISO-8601 UTC strings in both dialects, so they sort as text
 * and travel to JSON unchanged. Booleans are dates (banned = date_*_banned is set).
 */
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { LicenseScope, OrganizationRole, ResourceAccess, ResourceType, Role, Scope } from '../../common/enums';

export interface OrganizationsTable {
  organization_id: string;
  organization_name: string;
  organization_role: OrganizationRole;
  parent_organization_id: string | null;
  website: string | null;
  logo_url: string | null;
  address: string | null;
  ban_note: string | null;
  date_organization_banned: string | null;
  date_created: string;
}

interface OrganizationDomainsTable {
  organization_id: string;
  domain: string;
}

export interface MembersTable {
  member_id: string;
  organization_id: string;
  /** Always lower case: people are matched by email. */
  member_email: string;
  name: string;
  given_name: string | null;
  family_name: string | null;
  job_role: string | null;
  mobile_phone: string | null;
  office_phone: string | null;
  address: string | null;
  ban_note: string | null;
  date_member_banned: string | null;
  date_created: string;
}

export interface RoleAssignmentsTable {
  member_id: string;
  organization_id: string;
  role: Role;
  scope: Scope;
  /** The instant (ISO) from which it no longer counts (migration 0028); null: standing. */
  date_until: ColumnType<string | null, string | null | undefined, string | null>;
  /** When and by whom it was granted; null for assignments older than migration 0028 (and sign-ups: by nobody). */
  date_assigned: ColumnType<string | null, string | null | undefined, string | null>;
  assigned_by: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface CertificatesTable {
  distinguished_name: string;
  /** Lower-cased DN for the case-insensitive filter on both dialects. */
  dn_search: string;
  organization_id: string;
  description: string;
  owner_member_id: string | null;
  approver_member_id: string | null;
  date_not_before: string;
  date_not_after: string;
  date_approved: string | null;
  date_revoked: string | null;
  date_expiry_acknowledged: string | null;
  date_created: string;
  certificate_pem: string;
  serial_number: string;
  signature: string;
  signature_algorithm: string;
  version: number;
  /** SHA-256 of the DER, colon-separated upper-case hex (migration 0024); null only for a row an older instance wrote. */
  fingerprint_sha256: string | null;
}

export interface LicensesTable {
  license_id: string;
  license_name: string;
  name_search: string;
  license_scope: LicenseScope;
  organization_id: string;
  date_valid_from: string;
  days_valid: number;
  date_valid_until: string;
  /** The IANA zone its days are counted in (migration 0023): the requester's, 'UTC' when they named none. */
  time_zone: Generated<string>;
  note: string | null;
  date_approved: string | null;
  date_rejected: string | null;
  date_expiry_acknowledged: string | null;
  approver_member_id: string | null;
  /** The successor made by a renewal (SPEC.md §3 `extended_by`). */
  extended_by_license_id: string | null;
  version: number;
  date_created: string;
}

export interface ResourcesTable {
  resource_id: string;
  ordinal: number;
  resource_name: string;
  resource_type: ResourceType;
  resource_access: ResourceAccess;
  path_pattern: string;
  location: string;
  description: string | null;
}

interface ResourceGrantsTable {
  resource_id: string;
  organization_id: string;
}

interface AuditRecordsTable {
  record_id: Generated<number>;
  organization_id: string | null;
  reason: string;
  message: string;
  member_email: string | null;
  date_created: string;
  /** 1, 2, 3… per organization, set by a trigger at insert (migration 0005); null without organization. */
  sequence: Generated<number | null>;
}

/** How many journal records each organization has (migration 0005). */
/** Per organization: how many journal records it has (their numbering) and the version of its data (migration 0022). */
interface OrganizationCountersTable {
  organization_id: string;
  journal_records: number;
  version: number;
  /** The organization's rows of these tables (migration 0036): an unfiltered list's total. */
  certificates: Generated<number>;
  licenses: Generated<number>;
}

/** Sign-in accounts of the built-in identity provider. */
interface AccountsTable {
  account_id: string;
  email: string;
  password_hash: string;
  name: string;
  given_name: string | null;
  family_name: string | null;
  email_verified: number;
  date_created: string;
}

/** The built-in provider's sessions, grants, codes and tokens (oidc-provider adapter). */
interface OidcPayloadsTable {
  id: string;
  model: string;
  payload: string;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: number | null;
  consumed_at: number | null;
}

/** Small named values shared by all instances: signing keys, the master-secret verifier. */
/** One row (id 1) moved on by triggers (db/epoch-triggers.ts): export_epoch, organization_tree. */
interface EpochTable {
  id: number;
  epoch: string | number;
}

/** Per organization, moved on by every write to its certificates (migration 0015): what the certificate archive rebuilds. */
interface ArchiveVersionsTable {
  organization_id: string;
  version: string | number;
}

interface SettingsTable {
  name: string;
  value: string;
}

/** The outbox of events (migration 0018): written with the change, fanned out once by the dispatcher. */
interface EventsTable {
  event_id: Generated<number>;
  event_type: string;
  organization_id: string | null;
  subject_type: string;
  subject_id: string;
  /** JSON: the event's `data` (docs/decisions.md "Notifications"). */
  data: string;
  date_created: string;
  date_dispatched: string | null;
}

/** One row per time-driven event made: its key makes it once per (object, threshold). */
interface EventMarksTable {
  subject_type: string;
  subject_id: string;
  kind: string;
  days: number;
  date_end: string;
  date_created: string;
}

/** How far the time scan has looked (one row, id 1). */
interface ScanStateTable {
  id: number;
  date_scanned: string;
}

/** An organization's notification rules as JSON (common/schemas/notifications.ts); no row: the defaults. */
interface NotificationSettingsTable {
  organization_id: string;
  settings: string;
  date_updated: string;
}

/** A person's own choice for mails about approval work (migration 0030). */
interface MailPreferencesTable {
  member_id: string;
  approval_mail: 'each' | 'digest';
  time_zone: string;
  date_updated: string;
}

/** A daily digest decided for a person's local day: sent when `waiting` > 0. */
interface DigestMarksTable {
  member_id: string;
  digest_day: string;
  waiting: number;
  date_created: string;
}

interface NoticesTable {
  notice_id: Generated<number>;
  /** Null: a notice to the organization's members holding one of the roles in `audience` (migration 0034). */
  member_id: string | null;
  audience: ColumnType<number | null, number | null | undefined, number | null>;
  event_id: number;
  organization_id: string | null;
  event_type: string;
  title: string;
  link: string | null;
  date_created: string;
  date_read: string | null;
}

interface MailOutboxTable {
  mail_id: Generated<number>;
  event_id: number;
  organization_id: string | null;
  /** JSON array of addresses. */
  recipients: string;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: Generated<number>;
  next_attempt_at: string;
  last_error: string | null;
  date_sent: string | null;
  date_failed: string | null;
  date_created: string;
}

/** Gateway tokens made by POST /api/token (migration 0026); the token text is never stored. */
interface ApiTokensTable {
  /** The token's jti. */
  token_id: string;
  token_name: string;
  upn: string;
  /** JSON array of groups. */
  groups: string;
  /** The operator organization, whose journal shows the token's records. */
  organization_id: string;
  created_by: string;
  date_created: string;
  date_expires: string;
  date_last_used: string | null;
  date_revoked: string | null;
  revoked_by: string | null;
}

interface WebhookEndpointsTable {
  endpoint_id: string;
  organization_id: string;
  url: string;
  description: Generated<string>;
  /** JSON array of event types. */
  events: string;
  active: number;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: string | null;
  date_created: string;
  date_updated: string;
}

interface WebhookDeliveriesTable {
  delivery_id: string;
  endpoint_id: string;
  event_id: number;
  event_type: string;
  subject_key: string;
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: string;
  date_created: string;
  date_finished: string | null;
}

interface WebhookAttemptsTable {
  attempt_id: Generated<number>;
  delivery_id: string;
  date_attempted: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

/** An invitation to join an organization (migration 0027); its status is its dates (common/invitations.ts). */
export interface InvitationsTable {
  invitation_id: string;
  organization_id: string;
  email: string;
  role: Role;
  scope: Scope;
  invited_by: string | null;
  date_created: string;
  date_sent: string;
  date_expires: string;
  date_accepted: string | null;
  accepted_member_id: string | null;
  date_revoked: string | null;
  revoked_by: string | null;
}

/** Organization API keys (migration 0025): the secret only as its SHA-256; `roles` JSON of { role, scope }. */
export interface ApiKeysTable {
  api_key_id: string;
  organization_id: string;
  name: string;
  secret_hash: string;
  roles: string;
  read_only: number;
  created_by: string;
  created_by_name: string;
  created_by_email: string;
  date_created: string;
  date_expires: string;
  date_last_used: string | null;
  last_used_from: string | null;
  date_revoked: string | null;
}

/** Requests per key per minute window, shared by every instance (migration 0025). */
interface ApiKeyWindowsTable {
  api_key_id: string;
  window_start: string;
  requests: number;
}

/** Vendor support access requests (migration 0029): `request_id` is the "#N" the journal and banners name. */
export interface SupportRequestsTable {
  request_id: Generated<number>;
  organization_id: string;
  member_id: string;
  requester_organization_id: string;
  requester_name: string;
  requester_email: string;
  role: Role;
  reason: string;
  hours: number;
  break_glass: number;
  state: 'REQUESTED' | 'APPROVED' | 'DENIED' | 'ENDED' | 'EXPIRED';
  date_requested: string;
  date_decided: string | null;
  decided_by: string | null;
  date_until: string | null;
  date_ended: string | null;
  ended_by: string | null;
}

/** An organization's "approve support access automatically" and its longest access (migration 0029). */
interface SupportAccessSettingsTable {
  organization_id: string;
  auto_approve: number;
  max_hours: number;
}

export interface Database {
  organizations: OrganizationsTable;
  organization_domains: OrganizationDomainsTable;
  members: MembersTable;
  role_assignments: RoleAssignmentsTable;
  certificates: CertificatesTable;
  licenses: LicensesTable;
  resources: ResourcesTable;
  resource_grants: ResourceGrantsTable;
  audit_records: AuditRecordsTable;
  accounts: AccountsTable;
  oidc_payloads: OidcPayloadsTable;
  settings: SettingsTable;
  export_epoch: EpochTable;
  organization_tree: EpochTable;
  organization_counters: OrganizationCountersTable;
  archive_versions: ArchiveVersionsTable;
  events: EventsTable;
  event_marks: EventMarksTable;
  scan_state: ScanStateTable;
  notification_settings: NotificationSettingsTable;
  notices: NoticesTable;
  notice_reads: { member_id: string; notice_id: number; date_read: string };
  notice_read_through: { member_id: string; notice_id: number; date_read: string };
  mail_preferences: MailPreferencesTable;
  digest_marks: DigestMarksTable;
  mail_outbox: MailOutboxTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  api_tokens: ApiTokensTable;
  invitations: InvitationsTable;
  api_keys: ApiKeysTable;
  api_key_windows: ApiKeyWindowsTable;
  support_requests: SupportRequestsTable;
  support_access_settings: SupportAccessSettingsTable;
}

export type OrganizationRow = Selectable<OrganizationsTable>;
export type ResourceRow = Selectable<ResourcesTable>;
export type AccountRow = Selectable<AccountsTable>;
