/** One file the gateway pulls: what it is, its ETag, and a download that sends the bearer token. */
import { useState } from 'react';
import { Button, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { downloadFile } from '../../../lib/download';

export interface DownloadCardProps {
  title: string;
  description: string;
  path: string;
  fileName: string;
  etag: string;
  onDownloaded?: () => void;
}

export function DownloadCard({ title, description, path, fileName, etag, onDownloaded }: DownloadCardProps) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      if (await downloadFile(path, fileName)) onDownloaded?.();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card withBorder padding="md" radius="md" component="section" aria-label={title}>
      <Stack gap="xs" h="100%">
        <Title order={2} size="h4">
          {title}
        </Title>
        <Text size="sm" c="dimmed">
          {description} <Code>{path}</Code>
        </Text>
        <Text size="sm" component="div">
          ETag{' '}
          <Code className="break-anywhere" data-testid={`${fileName}-etag`}>
            {etag}
          </Code>
        </Text>
        <Group mt="auto" pt="xs">
          <Button variant="light" leftSection={<IconDownload size={16} aria-hidden />} loading={busy} onClick={() => void download()}>
            Download {fileName}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
