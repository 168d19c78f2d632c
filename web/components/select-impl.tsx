/** Mantine's Select of string values alone, for React.lazy (components/DeferredSelect.tsx): a chunk of its own. */
import { Select, type SelectProps } from '@mantine/core';

export default function StringSelect(props: SelectProps<string>) {
  return <Select<string> {...props} />;
}
