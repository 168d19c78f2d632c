/**
 * A list's "Export CSV" (docs/decisions.md "CSV export"): downloads every row of the list under the
 * filters and order in force, from the list's `.csv` route. The app signs in with a bearer token,
 * which a plain link would not send: the file is fetched with it and saved (lib/download.ts).
 */
import { useState } from 'react';
import { Button } from '@mantine/core';
import { IconFileSpreadsheet } from '@tabler/icons-react';
import { downloadFile } from '../lib/download';

export interface ExportCsvButtonProps {
  /** The list's JSON path; the export is at the same path with `.csv`. */
  path: string;
  /** The list's request: its filters and order are sent, its page (offset, limit) is not. */
  request: object;
  /** The file's name before the date, e.g. "certificates". */
  name: string;
  /** Where one screen has several lists: which one, for the button's accessible name ("Export CSV: expired licenses"). */
  list?: string;
}

export function ExportCsvButton({ path, request, name, list }: ExportCsvButtonProps) {
  const [busy, setBusy] = useState(false);
  const exportCsv = async () => {
    const query = Object.fromEntries(Object.entries(request as Record<string, string | boolean | undefined>).filter(([key]) => key !== 'offset' && key !== 'limit'));
    setBusy(true);
    try {
      await downloadFile(`${path}.csv`, `${name}-${new Date().toISOString().slice(0, 10)}.csv`, query);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="default" loading={busy} leftSection={<IconFileSpreadsheet size={16} aria-hidden />} onClick={() => void exportCsv()} aria-label={list ? `Export CSV: ${list}` : undefined}>
      Export CSV
    </Button>
  );
}
