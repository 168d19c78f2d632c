/**
 * Versions per organization instead of numbers for the whole database (docs/decisions.md "Kept answers").
 *
 * The access, data and journal epochs were single rows that every write moved: one write anywhere made
 * every organization's kept answers stale, and on PostgreSQL every writing transaction queued on those rows.
 * Now each organization has one row, `organization_counters`, holding the number of its journal records
 * (journal pages by key, migration 0005) and its `version`, which triggers move on every write to a table whose
 * rows belong to that organization. A write in one organization leaves every other organization's answers valid,
 * and writes to different organizations take different rows. All that one transaction locks for an
 * organization is that one row, whatever it writes there, so two writers of one organization queue, never
 * deadlock on it. The organizations' tree (who manages whom) has a row of its own, `organization_tree`, moved
 * only when an organization is added, removed or moved: what an actor may reach depends on it.
 */
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../database';
import { addEpochTriggers, createEpoch, dropEpoch } from '../epoch-triggers';

/**
 * Tables whose every row belongs to the organization in its `organization_id`. Not the notices: no kept answer
 * shows them (the bell's list is per member, answered afresh), and one event's notices to hundreds of members
 * would move the version once per notice.
 */
const OWNED = ['organizations', 'organization_domains', 'members', 'certificates', 'licenses', 'resource_grants'] as const;
const EVENTS = ['insert', 'update', 'delete'] as const;
/** A child shows its parent's name: a rename moves the children's versions too. */
const CHILDREN = `update organization_counters set version = version + 1
  where organization_id in (select organization_id from organizations where parent_organization_id = new.organization_id)`;

export async function up(db: Kysely<any>): Promise<void> {
  await dropEpoch(db, 'access_epoch', ['members', 'role_assignments', 'organizations']);
  await dropEpoch(db, 'data_epoch', ['certificates', 'licenses', 'members', 'role_assignments', 'organizations', 'organization_domains']);
  await dropEpoch(db, 'journal_epoch', ['audit_records']);

  // A new table rather than ALTER … RENAME: SQLite checks every trigger again on a rename and refuses the
  // archive's upsert alias (migration 0015).
  await db.schema.createTable('organization_counters')
    .addColumn('organization_id', 'text', (c) => c.primaryKey())
    .addColumn('journal_records', 'integer', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  // Every organization has its row from the start, so a version is read, never missing.
  await sql`insert into organization_counters (organization_id, journal_records, version)
    select o.organization_id, coalesce(j.total, 0), 0 from organizations o left join journal_counters j on j.organization_id = o.organization_id`.execute(db);
  await sql`insert into organization_counters (organization_id, journal_records, version)
    select organization_id, total, 0 from journal_counters j
    where not exists (select 1 from organizations o where o.organization_id = j.organization_id)`.execute(db);

  if (isPostgres(db)) await postgresTriggers(db);
  else await sqliteTriggers(db);
  await db.schema.dropTable('journal_counters').execute();

  await createEpoch(db, 'organization_tree', []);
  await treeTriggers(db);
}

/** Adds one to the version of organization `id` (an SQL expression; null: none), making its row when it has none. */
const bump = (id: string) => `insert into organization_counters (organization_id, journal_records, version) select ${id}, 0, 1 where ${id} is not null
  on conflict (organization_id) do update set version = organization_counters.version + 1`;

async function postgresTriggers(db: Kysely<any>): Promise<void> {
  // The journal's numbering (migration 0005) on the renamed table; a record moves the version too.
  await sql`create or replace function number_journal_record() returns trigger language plpgsql as $$
    begin
      insert into organization_counters (organization_id, journal_records, version) values (new.organization_id, 1, 1)
        on conflict (organization_id) do update set journal_records = organization_counters.journal_records + 1,
          version = organization_counters.version + 1
        returning journal_records into new.sequence;
      new.record_id := nextval(pg_get_serial_sequence('audit_records', 'record_id'));
      return new;
    end $$`.execute(db);
  // A row's organization, before and after (an update may move it), once each.
  await sql.raw(`create function bump_organization_version() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then ${bump('old.organization_id')}; end if;
      if tg_op <> 'DELETE' and (tg_op = 'INSERT' or new.organization_id is distinct from old.organization_id) then
        ${bump('new.organization_id')};
      end if;
      return null;
    end $$`).execute(db);
  for (const table of OWNED) {
    await sql`create trigger ${sql.raw(`${table}_version`)} after insert or update or delete on ${sql.table(table)}
      for each row execute function bump_organization_version()`.execute(db);
  }
  // A role changes what its holder may do: the holder's organization (their kept sign-in) moves, and the
  // organization where it applies (its member list) too; the same row twice for a role in the holder's own.
  await sql.raw(`create function bump_role_versions() returns trigger language plpgsql as $$
    declare r record;
    begin
      if tg_op = 'DELETE' then r := old; else r := new; end if;
      ${bump('r.organization_id')};
      ${bump('(select m.organization_id from members m where m.member_id = r.member_id)')};
      return null;
    end $$`).execute(db);
  await sql`create trigger role_assignments_version after insert or update or delete on role_assignments
    for each row execute function bump_role_versions()`.execute(db);
  await sql.raw(`create function bump_children_versions() returns trigger language plpgsql as $$
    begin
      ${CHILDREN};
      return null;
    end $$`).execute(db);
  await sql`create trigger organizations_children_version after update of organization_name on organizations
    for each row when (old.organization_name is distinct from new.organization_name) execute function bump_children_versions()`.execute(db);
}

async function sqliteTriggers(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists audit_records_sequence`.execute(db);
  await sql`create trigger audit_records_sequence after insert on audit_records when new.organization_id is not null
    begin
      insert into organization_counters (organization_id, journal_records, version) values (new.organization_id, 1, 1)
        on conflict (organization_id) do update set journal_records = journal_records + 1, version = version + 1;
      update audit_records set sequence = (select journal_records from organization_counters where organization_id = new.organization_id)
        where record_id = new.record_id;
    end`.execute(db);
  for (const table of OWNED) {
    for (const event of EVENTS) {
      const rows = event === 'insert' ? ['new'] : event === 'delete' ? ['old'] : ['old', 'new'];
      await sql.raw(`create trigger ${table}_${event}_version after ${event} on ${table}
        begin ${rows.map((row) => `${bump(`${row}.organization_id`)};`).join(' ')} end`).execute(db);
    }
  }
  for (const event of EVENTS) {
    const row = event === 'delete' ? 'old' : 'new';
    await sql.raw(`create trigger role_assignments_${event}_version after ${event} on role_assignments
      begin
        ${bump(`${row}.organization_id`)};
        ${bump(`(select organization_id from members where member_id = ${row}.member_id)`)};
      end`).execute(db);
  }
  await sql`create trigger organizations_children_version after update of organization_name on organizations
    when old.organization_name is not new.organization_name
    begin ${sql.raw(CHILDREN)}; end`.execute(db);
}

/** The tree's row moves when an organization is added, removed or given another parent. */
async function treeTriggers(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`create trigger organizations_tree after insert or delete or update of parent_organization_id on organizations
      for each statement execute function bump_organization_tree()`.execute(db);
    return;
  }
  for (const event of ['insert', 'delete', 'update of parent_organization_id']) {
    await sql.raw(`create trigger "organizations_${event.split(' ')[0]}_tree" after ${event} on organizations
      begin update organization_tree set epoch = epoch + 1 where id = 1; end`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop trigger if exists organizations_tree on organizations`.execute(db);
    await sql`drop trigger if exists organizations_children_version on organizations`.execute(db);
    await sql`drop function if exists bump_children_versions()`.execute(db);
    await sql`drop trigger if exists role_assignments_version on role_assignments`.execute(db);
    for (const table of OWNED) await sql`drop trigger if exists ${sql.raw(`${table}_version`)} on ${sql.table(table)}`.execute(db);
    await sql`drop function if exists bump_role_versions()`.execute(db);
    await sql`drop function if exists bump_organization_version()`.execute(db);
  } else {
    for (const event of ['insert', 'delete', 'update']) await sql.raw(`drop trigger if exists "organizations_${event}_tree"`).execute(db);
    await sql`drop trigger if exists organizations_children_version`.execute(db);
    for (const table of [...OWNED, 'role_assignments']) {
      for (const event of EVENTS) await sql.raw(`drop trigger if exists ${table}_${event}_version`).execute(db);
    }
  }
  await dropEpoch(db, 'organization_tree', []);
  await db.schema.createTable('journal_counters')
    .addColumn('organization_id', 'text', (c) => c.primaryKey())
    .addColumn('total', 'integer', (c) => c.notNull())
    .execute();
  await sql`insert into journal_counters (organization_id, total) select organization_id, journal_records from organization_counters
    where journal_records > 0`.execute(db);
  if (isPostgres(db)) {
    await sql`create or replace function number_journal_record() returns trigger language plpgsql as $$
      begin
        insert into journal_counters (organization_id, total) values (new.organization_id, 1)
          on conflict (organization_id) do update set total = journal_counters.total + 1
          returning total into new.sequence;
        new.record_id := nextval(pg_get_serial_sequence('audit_records', 'record_id'));
        return new;
      end $$`.execute(db);
  } else {
    await sql`drop trigger if exists audit_records_sequence`.execute(db);
    await sql`create trigger audit_records_sequence after insert on audit_records when new.organization_id is not null
      begin
        insert into journal_counters (organization_id, total) values (new.organization_id, 1)
          on conflict (organization_id) do update set total = total + 1;
        update audit_records set sequence = (select total from journal_counters where organization_id = new.organization_id)
          where record_id = new.record_id;
      end`.execute(db);
  }
  await db.schema.dropTable('organization_counters').execute();
  await createEpoch(db, 'journal_epoch', ['audit_records']);
  await createEpoch(db, 'data_epoch', ['certificates', 'licenses', 'members', 'role_assignments', 'organizations']);
  await addEpochTriggers(db, 'data_epoch', ['organization_domains']);
  await createEpoch(db, 'access_epoch', ['members', 'role_assignments', 'organizations']);
}
