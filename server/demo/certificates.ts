/** Demo certificates in every state, made at seed time with real keys (issue "Certificates"). */
import type { Tx } from '../db/database';
import type { DemoContext } from './context';
import { makeCertificate } from './make-certificate';
import { parseCertificatePem } from '../modules/certificates/x509';
import { insertCertificate } from '../modules/certificates/repository';

const DAY = 86_400_000;

interface DemoCertificate {
  subject: string;
  organization: string;
  owner: string;
  description: string;
  /** Validity window in days from now. */
  from: number;
  to: number;
  approvedDaysAgo?: number;
  revokedDaysAgo?: number;
  acknowledged?: boolean;
}

const DEMO: DemoCertificate[] = [
  { subject: 'C=DE, O=Contoso, OU=Gateways, CN=gw-hamburg.contoso.example', organization: 'contoso', owner: 'issuer@contoso.example', description: 'Hamburg gateway (waiting for approval)', from: -1, to: 364 },
  { subject: 'C=DE, O=Contoso, OU=Gateways, CN=gw-berlin.contoso.example', organization: 'contoso', owner: 'issuer@contoso.example', description: 'Berlin gateway', from: -30, to: 335, approvedDaysAgo: 29 },
  { subject: 'C=DE, O=Contoso, OU=Gateways, CN=gw-munich.contoso.example', organization: 'contoso', owner: 'issuer@contoso.example', description: 'Munich gateway (expired)', from: -400, to: -5, approvedDaysAgo: 399 },
  { subject: 'C=DE, O=Contoso, OU=Lab, CN=lab-old.contoso.example', organization: 'contoso', owner: 'issuer@contoso.example', description: 'Old lab box (expiry acknowledged)', from: -500, to: -100, approvedDaysAgo: 499, acknowledged: true },
  { subject: 'C=DE, O=Contoso, OU=Lab, CN=lab-leaked.contoso.example', organization: 'contoso', owner: 'issuer@contoso.example', description: 'Key leaked in a ticket (revoked)', from: -60, to: 305, approvedDaysAgo: 59, revokedDaysAgo: 10 },
  { subject: 'C=US, O=Northwind Networks, CN=edge-1.northwind.example', organization: 'northwind', owner: 'issuer@northwind.example', description: 'Edge router 1', from: -10, to: 355, approvedDaysAgo: 9 },
  { subject: 'C=US, O=Northwind Networks, CN=edge-2.northwind.example', organization: 'northwind', owner: 'issuer@northwind.example', description: 'Edge router 2 (not yet valid)', from: 7, to: 372, approvedDaysAgo: 1 },
  { subject: 'C=US, O=Northwind Networks, CN=staging.northwind.example', organization: 'northwind', owner: 'issuer@northwind.example', description: 'Staging (waiting for approval)', from: -2, to: 90 },
];

export async function seedCertificates(tx: Tx, context: DemoContext): Promise<void> {
  const now = context.now.getTime();
  const approver = context.members['approver@operator.example'];
  const iso = (days: number) => new Date(now + days * DAY).toISOString();
  for (const c of DEMO) {
    const { pem } = await makeCertificate({ subject: c.subject, notBefore: new Date(now + c.from * DAY), notAfter: new Date(now + c.to * DAY) });
    const parsed = parseCertificatePem(pem);
    await insertCertificate(tx, {
      ...parsed,
      dn_search: parsed.distinguished_name.toLowerCase(),
      organization_id: context.organizations[c.organization],
      description: c.description,
      owner_member_id: context.members[c.owner],
      approver_member_id: c.approvedDaysAgo != null ? approver : null,
      date_approved: c.approvedDaysAgo != null ? iso(-c.approvedDaysAgo) : null,
      date_revoked: c.revokedDaysAgo != null ? iso(-c.revokedDaysAgo) : null,
      date_expiry_acknowledged: c.acknowledged ? iso(c.to + 1) : null,
      date_created: iso(Math.min(c.from, 0)),
    });
  }
}
