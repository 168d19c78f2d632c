/**
 * A secret the portal shows this once (a gateway token, a webhook's signing secret): the warning,
 * the value in a read-only monospace box that selects itself on focus, and a Copy button that says
 * 'copied!' for 1 s (SPEC.md §9), also to screen readers.
 */
import { Alert, Button, CopyButton, Group, Textarea, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { MONOSPACE_TEXT_AREA } from './monospace';

const COPIED_TIMEOUT_MS = 1000;

export interface ShownOnceValueProps {
  label: string;
  value: string;
  minRows: number;
  maxRows?: number;
  /** Next to Copy, at the far end (e.g. the dialog's Done). */
  actions?: ReactNode;
}

/** "Shown only once", with what to do with the value and what to do when it is lost. */
export function ShownOnceWarning({ children }: { children: ReactNode }) {
  return (
    <Alert color="orange" variant="light" title="Shown only once" icon={<IconAlertTriangle size={20} aria-hidden />}>
      {children}
    </Alert>
  );
}

export function ShownOnceValue({ label, value, minRows, maxRows, actions }: ShownOnceValueProps) {
  return (
    <>
      <Textarea
        label={label}
        value={value}
        readOnly
        autosize
        minRows={minRows}
        maxRows={maxRows}
        styles={MONOSPACE_TEXT_AREA}
        spellCheck={false}
        onFocus={(event) => event.currentTarget.select()}
        className="break-anywhere"
      />
      <Group justify="space-between" gap="xs">
        <CopyButton value={value} timeout={COPIED_TIMEOUT_MS}>
          {({ copied, copy }) => (
            <Group gap="sm">
              <Button
                variant={copied ? 'light' : 'filled'}
                color={copied ? 'teal' : undefined}
                leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
                onClick={copy}
              >
                {copied ? 'copied!' : 'Copy'}
              </Button>
              <VisuallyHidden role="status">{copied ? 'copied!' : ''}</VisuallyHidden>
            </Group>
          )}
        </CopyButton>
        {actions}
      </Group>
    </>
  );
}
