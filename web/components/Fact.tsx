/** A label and its value in a DataList (the certificate details, a webhook endpoint and its deliveries). */
import type { ReactNode } from 'react';
import { DataList } from '@mantine/core';
import { MONOSPACE } from './monospace';

export function Fact({ label, children, mono }: { label: string; children: ReactNode; mono?: boolean }) {
  return (
    <DataList.Item>
      <DataList.ItemLabel>{label}</DataList.ItemLabel>
      <DataList.ItemValue className="break-anywhere" style={mono ? MONOSPACE : undefined} miw={0}>
        {children}
      </DataList.ItemValue>
    </DataList.Item>
  );
}
