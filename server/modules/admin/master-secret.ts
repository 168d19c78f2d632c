/**
 * The master secret (DECISIONS.md "Master secret"): held in this process's memory only; the
 * database keeps a verifier (a salted scrypt hash) so that after a restart only the same
 * secret is accepted again. Keys that sign license keys (and later API tokens) are derived from
 * it with HKDF, so they depend on the secret alone: the same secret gives the same public key
 * on every instance and after a rebuild of the database.
 */
import fs from 'node:fs/promises';
import { createPrivateKey, createPublicKey, hkdfSync, type KeyObject } from 'node:crypto';
import { inspect } from 'node:util';
import type { FastifyInstance } from 'fastify';
import type { Db, Queryable } from '../../db/database';
import { hashPassword, verifyPassword } from '../../auth/idp/passwords';
import { audit } from '../../db/audit';
import { badRequest, conflict, unavailable } from '../../errors';
import { masterSecretSchema } from '../../../common/schemas/admin';

declare module 'fastify' {
  interface FastifyInstance {
    masterSecret: MasterSecret;
  }
}

const SECRET_NOT_PROVIDED = 'Secret not yet provided! An operator DevOps must provide the master secret first (Admin → Provide Secret).';
const SECRET_ALREADY_PROVIDED = 'Secret already provided!';
const SECRET_MISMATCH = 'The secret does not match the one provided before.';
const VERIFIER_SETTING = 'master-secret.verifier';
// A fixed salt: the derived keys must depend on the secret alone (see the header).
const HKDF_SALT = Buffer.from('customer-portal master secret v1', 'utf8');
// PKCS#8 wrapping of a raw 32-byte Ed25519 seed (RFC 8410): this prefix, then the seed.
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface SigningKeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export class MasterSecret {
  #secret: Buffer | null = null;
  #keys = new Map<string, SigningKeyPair>();
  /** Set while a provision is being checked, so a second concurrent one is refused at once. */
  #busy = false;

  get provided(): boolean {
    return this.#secret !== null;
  }

  /** 32 bytes for one purpose (`info`), e.g. 'license-keys'; 503 while the secret is missing. */
  derive(info: string): Buffer {
    if (!this.#secret) throw unavailable(SECRET_NOT_PROVIDED);
    return Buffer.from(hkdfSync('sha256', this.#secret, HKDF_SALT, info, 32));
  }

  /** The Ed25519 key pair for a purpose, made from the derived seed and kept for the next call. */
  deriveKeyPair(info: string): SigningKeyPair {
    const cached = this.#keys.get(info);
    if (cached) return cached;
    const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, this.derive(info)]), format: 'der', type: 'pkcs8' });
    const pair = { privateKey, publicKey: createPublicKey(privateKey) };
    this.#keys.set(info, pair);
    return pair;
  }

  /** @internal for provideMasterSecret */
  begin(): void {
    if (this.#secret || this.#busy) throw conflict(SECRET_ALREADY_PROVIDED);
    this.#busy = true;
  }

  /** @internal for provideMasterSecret */
  end(secret: string | null): void {
    if (secret !== null) this.#secret = Buffer.from(secret, 'utf8');
    this.#busy = false;
  }

  // Never let the secret reach a log line or a response by accident.
  toJSON() {
    return { provided: this.provided };
  }
  [inspect.custom]() {
    return `MasterSecret { provided: ${this.provided} }`;
  }
}

function readVerifier(db: Queryable) {
  return db.selectFrom('settings').select('value').where('name', '=', VERIFIER_SETTING).executeTakeFirst();
}

/** The secret as common/schemas/admin.ts reads it (trimmed, 16–1024 characters), or a 400 about field `secret`. */
function normalise(secret: string): string {
  const result = masterSecretSchema.safeParse(secret);
  if (!result.success) throw badRequest(`The secret ${result.error.issues[0].message}.`, 'secret');
  return result.data;
}

export interface Provider {
  email: string | null;
  organization_id: string | null;
  /** How it came: through the admin screen or the MASTER_SECRET_FILE. */
  via: 'api' | 'file';
}

/**
 * Checks the secret against the stored verifier (storing one on the first provision), then holds
 * it. The audit record and a first verifier are written in one transaction.
 */
export async function provideMasterSecret(db: Db, holder: MasterSecret, secret: string, by: Provider, now: Date): Promise<void> {
  holder.begin();
  let accepted: string | null = null;
  try {
    const text = normalise(secret);
    const stored = await readVerifier(db);
    if (stored && !(await verifyPassword(text, stored.value))) throw badRequest(SECRET_MISMATCH, 'secret');
    // scrypt is slow on purpose: hash outside the transaction.
    const verifier = stored ? null : await hashPassword(text);
    await db.transaction().execute(async (tx) => {
      if (verifier) {
        // Two instances provisioning at once: the first verifier wins, the other secret must match it.
        await tx.insertInto('settings').values({ name: VERIFIER_SETTING, value: verifier }).onConflict((oc) => oc.column('name').doNothing()).execute();
        const winner = await readVerifier(tx);
        if (winner && winner.value !== verifier && !(await verifyPassword(text, winner.value))) throw badRequest(SECRET_MISMATCH, 'secret');
      }
      const how = by.via === 'file' ? 'read from MASTER_SECRET_FILE' : 'provided';
      await audit(tx, {
        reason: 'MASTER_SECRET_PROVIDED',
        message: stored ? `The master secret was ${how} again after a restart.` : `The master secret was ${how} for the first time; its verifier is stored.`,
        organization_id: by.organization_id,
        member_email: by.email,
        now,
      });
    });
    accepted = text;
  } finally {
    holder.end(accepted);
  }
}

/** MASTER_SECRET_FILE at start: a missing file or a wrong secret stops the start with a clear message. */
export async function provideSecretFromFile(app: FastifyInstance): Promise<void> {
  const file = app.config.masterSecretFile;
  if (!file) return;
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`MASTER_SECRET_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
  }
  try {
    await provideMasterSecret(app.db, app.masterSecret, text, { email: null, organization_id: null, via: 'file' }, app.now());
  } catch (error) {
    throw new Error(`MASTER_SECRET_FILE: ${(error as Error).message}`);
  }
}
