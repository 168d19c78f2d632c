/**
 * Mantine's Select, whose code (the combobox, its popover and floating-ui: about 25 KB gzipped)
 * loads when the person reaches for it: pointer over it, focus or click. Until then a read-only
 * text box in the same place shows the same label, value and chevron, so the first screen draws
 * it without that code. The swap keeps what the person started: a click opens the list, focus
 * stays in the box. Once loaded, the real Select stays.
 *
 * The stand-in stays until the code has arrived and the Select replaces it in one commit (no Suspense
 * fallback in between: a fallback is a new box, and the focus fell to the page for a Tab stop). The Select
 * takes the focus only while the stand-in still holds it: someone who tabbed on meanwhile stays where they
 * went (issue 34: focus jumped back from "Upload certificate" to the Organization select).
 */
import { useEffect, useState, type ComponentType } from 'react';
import { TextInput, type SelectProps } from '@mantine/core';

const loadSelect = () => import('./select-impl');
type LoadedSelect = ComponentType<SelectProps<string>>;

type Wanted = 'no' | 'focus' | 'open';

/** The chevron Mantine's Select shows (Combobox.Chevron), without the Combobox module. */
function Chevron() {
  return (
    <svg viewBox="0 0 15 15" fill="none" aria-hidden className="select-chevron">
      <path
        d="M4.93179 5.43179C4.75605 5.60753 4.75605 5.89245 4.93179 6.06819C5.10753 6.24392 5.39245 6.24392 5.56819 6.06819L7.49999 4.13638L9.43179 6.06819C9.60753 6.24392 9.89245 6.24392 10.0682 6.06819C10.2439 5.89245 10.2439 5.60753 10.0682 5.43179L7.81819 3.18179C7.73379 3.0974 7.61933 3.04999 7.49999 3.04999C7.38064 3.04999 7.26618 3.0974 7.18179 3.18179L4.93179 5.43179ZM10.0682 9.56819C10.2439 9.39245 10.2439 9.10753 10.0682 8.93179C9.89245 8.75606 9.60753 8.75606 9.43179 8.93179L7.49999 10.8636L5.56819 8.93179C5.39245 8.75606 5.10753 8.75606 4.93179 8.93179C4.75605 9.10753 4.75605 9.39245 4.93179 9.56819L7.18179 11.8182C7.35753 11.9939 7.64245 11.9939 7.81819 11.8182L10.0682 9.56819Z"
        fill="currentColor"
        fillRule="evenodd"
        clipRule="evenodd"
      />
    </svg>
  );
}

export interface DeferredSelectProps extends SelectProps<string> {
  data: { value: string; label: string }[];
  label: string;
}

export function DeferredSelect(props: DeferredSelectProps) {
  const [wanted, setWanted] = useState<Wanted>('no');
  const want = (next: Exclude<Wanted, 'no'>) => setWanted((current) => (current === 'open' ? current : next));
  const [focused, setFocused] = useState(false);
  const [Select, setSelect] = useState<LoadedSelect | null>(null);
  useEffect(() => {
    if (wanted === 'no' || Select) return;
    let current = true;
    void loadSelect().then((module) => current && setSelect(() => module.default));
    return () => {
      current = false;
    };
  }, [wanted, Select]);

  const standIn = (
    <TextInput
      label={props.label}
      placeholder={props.placeholder}
      description={props.description}
      error={props.error}
      disabled={props.disabled}
      value={props.data.find((option) => option.value === props.value)?.label ?? ''}
      readOnly
      role="combobox"
      aria-haspopup="listbox"
      aria-expanded={false}
      autoComplete="off"
      rightSection={<Chevron />}
      rightSectionPointerEvents="none"
      onPointerEnter={() => void loadSelect()}
      onFocus={(event) => {
        setFocused(true);
        want('focus');
        props.onFocus?.(event as never);
      }}
      onBlur={() => setFocused(false)}
      onClick={() => want('open')}
      onKeyDown={(event) => {
        if (event.key === 'ArrowDown' || event.key === 'Enter' || event.key === ' ') want('open');
      }}
    />
  );
  if (wanted === 'no' || !Select) return standIn;
  return <Select {...props} autoFocus={focused} defaultDropdownOpened={focused && wanted === 'open'} />;
}
