/** The chart's months in words, and its summary for people who do not see the bars. */
import type { Overview } from '../../../common/schemas/overview';

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** `2026-03` as the app writes months (SPEC.md §9's upper-case names): MAR 2026. */
export function monthLabel(month: string): string {
  const [year, m] = month.split('-');
  return `${MONTHS[Number(m) - 1]} ${year}`;
}

const number = new Intl.NumberFormat('en-US');
const plural = (n: number, word: string) => `${number.format(n)} ${word}${n === 1 ? '' : 's'}`;

/** One sentence with the totals and the busiest month (months are UTC, as the server counts them). */
export function expirySummary(months: Overview['expiries_by_month']): string {
  const certificates = months.reduce((sum, m) => sum + m.certificates, 0);
  const licenses = months.reduce((sum, m) => sum + m.licenses, 0);
  if (certificates + licenses === 0) return 'No approved certificate or license ends in the next 12 months.';
  const busiest = months.reduce((top, m) => (m.certificates + m.licenses > top.certificates + top.licenses ? m : top));
  return `${plural(certificates, 'certificate')} and ${plural(licenses, 'license')} end in the next 12 months (UTC), most in ${monthLabel(busiest.month)} (${number.format(busiest.certificates + busiest.licenses)}).`;
}
