/** Mantine's Select of string values alone, for React.lazy (components/DeferredSelect.tsx): a chunk of its own. */
// All of Mantine's styles: the first screens load only their own (web/mantine-first-screens.css).
import '@mantine/core/styles.layer.css';
import { Select, type SelectProps } from '@mantine/core';

export default function StringSelect(props: SelectProps<string>) {
  return <Select<string> {...props} />;
}
