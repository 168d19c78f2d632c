/** Mantine's Tooltip alone, for React.lazy (components/HoverHint.tsx): a chunk of its own. */
// All of Mantine's styles: the first screens load only their own (web/mantine-first-screens.css).
import '@mantine/core/styles.layer.css';
export { Tooltip as default } from '@mantine/core';
