/**
 * The expiries per month as bars (@mantine/charts over recharts), loaded on its own after the
 * counts. The bars are a picture of the numbers: the section's summary and the table below them
 * say the same in words, so the drawing is hidden from screen readers and takes no focus.
 */
import '@mantine/charts/styles.layer.css';
import { BarChart } from '@mantine/charts';
import { Box } from '@mantine/core';
import type { Overview } from '../../../common/schemas/overview';
import { monthLabel } from './months';

const SERIES = [
  { name: 'certificates', label: 'Certificates', color: 'indigo.6' },
  { name: 'licenses', label: 'Licenses', color: 'teal.6' },
];

export default function ExpiryChart({ months }: { months: Overview['expiries_by_month'] }) {
  const data = months.map((m) => ({ ...m, month: monthLabel(m.month) }));
  return (
    <Box aria-hidden>
      <BarChart
        h={240}
        data={data}
        dataKey="month"
        series={SERIES}
        withLegend
        legendProps={{ verticalAlign: 'bottom' }}
        tickLine="y"
        yAxisProps={{ allowDecimals: false }}
        barChartProps={{ accessibilityLayer: false }}
      />
    </Box>
  );
}
