/** The admin area's API keys (issue 32): every organization's keys for the vendor's supervisors, to see and revoke. */
import { DataTable } from '../../components/DataTable';
import { Page } from '../../components/Page';
import { QueryList } from '../../components/QueryList';
import { useAllApiKeys } from './api';
import { apiKeyColumns } from './ApiKeysPage';

export default function AdminApiKeysPage() {
  const keys = useAllApiKeys();
  return (
    <Page title="API keys" subtitle="The API keys of all organizations, newest first: who made them, what they may do, when they were last used.">
      <QueryList query={keys} noun="API keys" emptyText="No organization has an API key yet.">
        {(items) => <DataTable label="API keys" columns={apiKeyColumns(Date.now(), { organization: true })} rows={items} rowKey={(k) => k.api_key_id} minWidth={1000} />}
      </QueryList>
    </Page>
  );
}
