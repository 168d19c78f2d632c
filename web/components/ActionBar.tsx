/**
 * The buttons of a details page (the certificate's, the license's): each action shown when the
 * page says so (the object's `abilities` and its state in common/status.ts), run at a click or
 * after a confirmation dialog, with its button (or the dialog's) pending and the others disabled
 * meanwhile, and a toast when it succeeded. A refusal (409) is already a toast from lib/api.ts:
 * the dialog closes and the page stays.
 */
import { useState, type ReactNode } from 'react';
import { Button, Group, type ButtonProps } from '@mantine/core';
import { notifySuccess } from '../lib/notifications';
import { ConfirmModal } from './ConfirmModal';

export interface Action<R = unknown> {
  key: string;
  label: string;
  icon: ReactNode;
  /** Whether the button shows: what the caller may do to the object and its state allow it. */
  shown: boolean;
  variant?: ButtonProps['variant'];
  color?: ButtonProps['color'];
  /** Does the work, usually a mutation's mutateAsync; a rejection means lib/api.ts has shown why. */
  run: () => Promise<R> | void;
  /** The toast after success; none when the caller shows its own. */
  success?: string | ((result: R) => string);
  /** Asks first (actions that cannot be undone): the dialog's title, button and sentence. */
  confirm?: { title: string; label: string; body: ReactNode };
  /** Pending outside the bar (a page that runs the action through its own form). */
  pending?: boolean;
}

/** An Action with its result type checked against its success message. */
export const action = <R,>(a: Action<R>): Action => a as Action;

export interface ActionBarProps {
  actions: Action[];
  /** After any action succeeded (back one page, say). */
  onDone?: () => void;
}

export function ActionBar({ actions, onDone }: ActionBarProps) {
  const [running, setRunning] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const shown = actions.filter((a) => a.shown);
  if (shown.length === 0) return null;

  const pending = (a: Action) => running === a.key || !!a.pending;
  const busy = shown.some(pending);

  const start = async (a: Action) => {
    setRunning(a.key);
    try {
      const result = await a.run();
      setConfirming(null);
      if (a.success) notifySuccess(typeof a.success === 'string' ? a.success : a.success(result));
      onDone?.();
    } catch {
      setConfirming(null); // lib/api.ts has shown the refusal
    } finally {
      setRunning(null);
    }
  };

  const confirmable = shown.filter((a) => a.confirm);
  return (
    <>
      <Group gap="sm" wrap="wrap">
        {shown.map((a) => (
          <Button
            key={a.key}
            variant={a.variant}
            color={a.color}
            leftSection={a.icon}
            loading={!a.confirm && pending(a)}
            disabled={busy}
            onClick={() => (a.confirm ? setConfirming(a.key) : void start(a))}
          >
            {a.label}
          </Button>
        ))}
      </Group>
      {confirmable.map((a) => (
        <ConfirmModal
          key={a.key}
          opened={confirming === a.key}
          title={a.confirm!.title}
          confirmLabel={a.confirm!.label}
          pending={pending(a)}
          onClose={() => setConfirming(null)}
          onConfirm={() => void start(a)}
        >
          {a.confirm!.body}
        </ConfirmModal>
      ))}
    </>
  );
}
