/** Release Notes (SPEC.md §2): CHANGELOG.md of the repository, bundled at build time. */
import Markdown, { type Components } from 'react-markdown';
import { Anchor, Code, List, Stack, Text, Title } from '@mantine/core';
import changelog from '../../CHANGELOG.md?raw';
import { Page } from '../components/Page';

// The page has its own h1: the changelog's title is left out, its versions sit below it.
const components: Components = {
  h1: () => null,
  h2: ({ children }) => (
    <Title order={2} size="h3" mt="md">
      {children}
    </Title>
  ),
  h3: ({ children }) => (
    <Title order={3} size="h4" mt="sm">
      {children}
    </Title>
  ),
  p: ({ children }) => <Text>{children}</Text>,
  ul: ({ children }) => <List spacing={4}>{children}</List>,
  ol: ({ children }) => (
    <List type="ordered" spacing={4}>
      {children}
    </List>
  ),
  li: ({ children }) => <List.Item>{children}</List.Item>,
  a: ({ href, children }) => <Anchor href={href}>{children}</Anchor>,
  code: ({ children }) => <Code>{children}</Code>,
};

export default function ReleaseNotesPage() {
  return (
    <Page title="Release Notes">
      <Stack gap="sm">
        <Markdown components={components}>{changelog}</Markdown>
      </Stack>
    </Page>
  );
}
