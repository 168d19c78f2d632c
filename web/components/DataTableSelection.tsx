/**
 * Row selection of the one DataTable (bulk actions, docs/decisions.md "Bulk actions"): a native
 * checkbox per row and one for the page in the header, each with its own accessible name. Native
 * rather than Mantine's Checkbox: the certificate list is a first screen, and a native box needs no
 * component styles there. On phones the box sits at the card's top right, beside its title.
 */
import { useEffect, useRef } from 'react';
import classes from './DataTableSelection.module.css';

export const selectionClasses = classes;

export interface TableSelection<T> {
  isSelected: (row: T) => boolean;
  onToggle: (row: T, selected: boolean) => void;
  /** The header's box: every row of the page on or off. */
  onTogglePage: (rows: T[], selected: boolean) => void;
  /** The row's box's accessible name: "Select CN=gw1,O=Contoso". */
  label: (row: T) => string;
}

interface RowCheckboxProps {
  label: string;
  checked: boolean;
  indeterminate?: boolean;
  onChange: (checked: boolean) => void;
}

/** A checkbox in a label that gives it a 24 px target (WCAG 2.5.8). */
export function RowCheckbox({ label, checked, indeterminate = false, onChange }: RowCheckboxProps) {
  const box = useRef<HTMLInputElement>(null);
  // `indeterminate` is a property only, no attribute: set it on the element.
  useEffect(() => {
    if (box.current) box.current.indeterminate = indeterminate;
  }, [indeterminate]);
  return (
    <label className={classes.target}>
      <input ref={box} type="checkbox" className={classes.box} aria-label={label} checked={checked} onChange={(event) => onChange(event.currentTarget.checked)} />
    </label>
  );
}
