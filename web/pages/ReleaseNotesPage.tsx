/**
 * Release Notes (SPEC.md §2): RELEASE-NOTES.md, what changed for the people who use the portal, bundled at build
 * time. CHANGELOG.md stays the engineering changelog for operators (issue 34: customers read about gzip and Prometheus).
 */
import Markdown, { type Components } from 'react-markdown';
import { Anchor, Code, List, Stack, Text, Title } from '@mantine/core';
import changelog from '../../RELEASE-NOTES.md?raw';
import { Page } from '../components/Page';

// The page has its own h1: the notes' title is left out, their versions sit below it.
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
