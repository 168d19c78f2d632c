/**
 * The filters the certificate and license lists share beyond the SPEC's toggles (issue 12, docs/decisions.md
 * "Status filters"): the status chips, "expiring within N days" and the range on the end of validity, over one
 * list's status conditions (db/status-sql.ts), and whether they read the clock (such a page is not kept).
 */
import type { Expression, SqlBool } from 'kysely';
import { DAY } from '../../common/dates';
import type { StatusGroup } from '../../common/status-filters';
import type { Queryable } from './database';
import { after, earliest, within, type Organizations } from './next-instant';
import { withStatuses } from './status-sql';

export interface StatusFilterQuery<S extends string> {
  hideExpired?: boolean;
  hideValid?: boolean;
  status?: S[];
  expiringWithin?: number;
  untilFrom?: string;
  untilBefore?: string;
}

interface StatusList<S extends string> {
  /** The list's conditions (certificateSql, licenseSql). */
  sql: {
    has(status: S, at: string): Expression<SqlBool>;
    expiringBy(at: string, until: string): Expression<SqlBool>;
    endsFrom(from: string): Expression<SqlBool>;
    endsBefore(before: string): Expression<SqlBool>;
  };
  groups: readonly StatusGroup<S>[];
  /** The chips whose rows change as time passes. */
  timeStatuses: readonly S[];
  /** The list's table and the columns whose instants its time statuses turn at: the start and the end of validity. */
  validity: { table: 'certificates' | 'licenses'; start: string; end: string };
}

export function statusListFilters<S extends string>({ sql, groups, timeStatuses, validity }: StatusList<S>) {
  const readsClock = (query: StatusFilterQuery<S>): boolean =>
    !!(query.hideExpired || query.hideValid || query.expiringWithin || query.status?.some((s) => timeStatuses.includes(s)));
  return {
    /** The conditions of the query's filters, each over the list's own table (so counts need no joins). */
    conditions(query: StatusFilterQuery<S>, at: string): Expression<SqlBool>[] {
      const conditions: Expression<SqlBool>[] = [];
      if (query.status) conditions.push(withStatuses(groups, query.status, (s) => sql.has(s, at)));
      if (query.expiringWithin) conditions.push(sql.expiringBy(at, new Date(Date.parse(at) + query.expiringWithin * DAY).toISOString()));
      if (query.untilFrom) conditions.push(sql.endsFrom(query.untilFrom));
      if (query.untilBefore) conditions.push(sql.endsBefore(query.untilBefore));
      return conditions;
    },

    /** Do the filters read the clock: which rows they let through changes as rows enter or leave their validity? */
    readsClock,

    /**
     * The next instant after `now` at which a row of these organizations may enter or leave the query's
     * filters by time alone: a start or end of validity passes, or ("expiring within N days") an end comes
     * within N days. Index seeks (db/next-instant.ts); Infinity when the filters do not read the clock. The
     * page tells it (http/kept-answers.ts, X-Changes-In) and an open list fetches again then.
     */
    nextChange(db: Queryable, organizations: Organizations, query: StatusFilterQuery<S>, now: Date): Promise<number> {
      if (!readsClock(query)) return Promise.resolve(Infinity);
      const { table, start, end } = validity;
      const coming = query.expiringWithin ? [within(table, end, query.expiringWithin * DAY, organizations)] : [];
      return earliest(db, now, [...after(table, [start, end], organizations), ...coming]);
    },
  };
}
