/**
 * License keys (DECISIONS.md "Licenses"): the payload of an approved license signed with the
 * Ed25519 key derived from the master secret. Format and offline check: common/license-key.ts.
 */
import type { Db } from '../../db/database';
import type { RequestActor } from '../../auth/actor';
import type { MasterSecret } from '../admin/master-secret';
import { encodeLicenseKey } from '../../../common/license-key';
import { conflict } from '../../errors';
import { findAuthorized } from './service';

/** HKDF `info` of the license-signing key; other keys (API tokens) use other infos. */
const LICENSE_KEY_INFO = 'license-keys';

export async function licenseKey(db: Db, actor: RequestActor, licenseId: string, secret: MasterSecret): Promise<string> {
  const row = await findAuthorized(db, actor, 'read', licenseId);
  if (row.date_rejected) throw conflict('A rejected license has no license key.');
  if (!row.date_approved) throw conflict('The license key exists only once the license is approved.');
  return encodeLicenseKey(
    {
      license_id: row.license_id,
      license_name: row.license_name,
      license_scope: row.license_scope,
      organization_id: row.organization_id,
      date_valid_from: row.date_valid_from,
      date_valid_until: row.date_valid_until,
    },
    secret.deriveKeyPair(LICENSE_KEY_INFO).privateKey,
  );
}

/** The public key that verifies every license key, as a PEM (SPKI) text. */
export function licensePublicKeyPem(secret: MasterSecret): string {
  return secret.deriveKeyPair(LICENSE_KEY_INFO).publicKey.export({ type: 'spki', format: 'pem' }).toString();
}
