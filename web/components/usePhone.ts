/** Phones get cards and stacked layouts: below Mantine's "sm" breakpoint, where the sidebar collapses too. */
import { useMediaQuery } from '@mantine/hooks';

export const usePhone = () => useMediaQuery('(max-width: 48em)');
