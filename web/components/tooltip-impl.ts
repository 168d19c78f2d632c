/** Mantine's Tooltip alone, for React.lazy (components/HoverHint.tsx): a chunk of its own. */
export { Tooltip as default } from '@mantine/core';
