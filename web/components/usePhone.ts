/** Phones get cards and stacked layouts: below Mantine's "sm" breakpoint, where the sidebar collapses too. */
import { useMediaQuery } from '@mantine/hooks';

// Read at the first render (the app renders in the browser only): with Mantine's default, the
// first render assumed a wide screen and a phone drew every list twice, a table and then cards.
export const usePhone = () => useMediaQuery('(max-width: 48em)', undefined, { getInitialValueInEffect: false });
