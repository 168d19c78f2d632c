// The enumerations of SPEC.md §3, as the upper-case strings that travel in JSON (DECISIONS.md "Names").
export const ORGANIZATION_ROLES = ['OPERATOR', 'PARTNER', 'CUSTOMER'] as const;
export type OrganizationRole = (typeof ORGANIZATION_ROLES)[number];

export const ROLES = ['SUPERVISOR', 'ADMINISTRATOR', 'APPROVER', 'ISSUER', 'MEMBER', 'DEVOPS'] as const;
export type Role = (typeof ROLES)[number];

export const SCOPES = ['COOPERATION', 'MANAGED', 'ORGANIZATION'] as const;
export type Scope = (typeof SCOPES)[number];

export const LICENSE_SCOPES = ['EVALUATION', 'LAB', 'TEST', 'PRODUCTION'] as const;
export type LicenseScope = (typeof LICENSE_SCOPES)[number];

export const RESOURCE_TYPES = ['LINUX_PACKAGE', 'IMAGE_STORE', 'STATIC_CONTENT'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export const RESOURCE_ACCESS = ['PUBLIC', 'DEFAULT', 'RESTRICTED'] as const;
export type ResourceAccess = (typeof RESOURCE_ACCESS)[number];

/** Labels shown in the UI; the operator role reads "Operator" (DECISIONS.md "Names"). */
export function label(value: string): string {
  return value.charAt(0) + value.slice(1).toLowerCase();
}
