/**
 * oidc-provider's storage in table `oidc_payloads`, one row per (model, id). Keeping sessions,
 * grants, codes and refresh tokens in the database lets several instances share them and lets
 * them survive a restart. The same queries run on SQLite and PostgreSQL.
 */
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../../db/database';

const epochSeconds = () => Math.floor(Date.now() / 1000);

/** Expired rows are invisible to find*; they are deleted in passing, at most this often. */
const SWEEP_INTERVAL_SECONDS = 10 * 60;
const lastSweep = new WeakMap<Db, number>();

export class KyselyAdapter implements Adapter {
  constructor(
    private readonly db: Db,
    private readonly model: string,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const now = epochSeconds();
    const columns = {
      payload: JSON.stringify(payload),
      grant_id: payload.grantId ?? null,
      user_code: payload.userCode ?? null,
      uid: payload.uid ?? null,
      expires_at: expiresIn ? now + expiresIn : null,
      consumed_at: typeof payload.consumed === 'number' ? payload.consumed : null,
    };
    await this.db
      .insertInto('oidc_payloads')
      .values({ id, model: this.model, ...columns })
      .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(columns))
      .execute();
    await this.sweep(now);
  }

  find(id: string) {
    return this.findBy('id', id);
  }

  findByUid(uid: string) {
    return this.findBy('uid', uid);
  }

  findByUserCode(userCode: string) {
    return this.findBy('user_code', userCode);
  }

  async consume(id: string): Promise<void> {
    await this.db
      .updateTable('oidc_payloads')
      .set({ consumed_at: epochSeconds() })
      .where('model', '=', this.model)
      .where('id', '=', id)
      .execute();
  }

  async destroy(id: string): Promise<void> {
    await this.db.deleteFrom('oidc_payloads').where('model', '=', this.model).where('id', '=', id).execute();
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    // The provider calls this once per token model, so each call removes its own model's rows.
    await this.db.deleteFrom('oidc_payloads').where('model', '=', this.model).where('grant_id', '=', grantId).execute();
  }

  private async findBy(column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
    const row = await this.db
      .selectFrom('oidc_payloads')
      .select(['payload', 'consumed_at'])
      .where('model', '=', this.model)
      .where(column, '=', value)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', epochSeconds())]))
      .executeTakeFirst();
    if (!row) return undefined;
    const payload = JSON.parse(row.payload) as AdapterPayload;
    // PostgreSQL's bigint may arrive as text; the provider compares `consumed` as a number.
    return row.consumed_at == null ? payload : { ...payload, consumed: Number(row.consumed_at) };
  }

  private async sweep(now: number): Promise<void> {
    if (now - (lastSweep.get(this.db) ?? 0) < SWEEP_INTERVAL_SECONDS) return;
    lastSweep.set(this.db, now);
    await this.db.deleteFrom('oidc_payloads').where('expires_at', '<', now).execute();
  }
}
