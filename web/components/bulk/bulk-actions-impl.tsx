/** The bulk bar, its confirmation and its answer (BulkActions.tsx), loaded with the first selection. */
// All of Mantine's styles: the first screens load only their own (web/mantine-first-screens.css), and the dialogs need theirs.
import '@mantine/core/styles.layer.css';
import { useState } from 'react';
import { Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { ConfirmModal } from '../ConfirmModal';
import { notifySuccess } from '../../lib/notifications';
import { runBulk, type BulkPlan } from './run-bulk';
import type { BulkAction, BulkActionsProps, BulkItemResult } from './types';
import classes from './BulkActions.module.css';

const format = new Intl.NumberFormat('en-US');

interface Confirming {
  action: BulkAction<unknown>;
  plan: BulkPlan;
  count: number;
  /** Selected (or matching) but not acted on: the caller may not, or the state does not allow it. */
  skipped: number;
  /** "All that match": how many match. */
  matching?: number;
}

interface Answer {
  action: BulkAction<unknown>;
  results: BulkItemResult[];
  /** Why the run stopped early (a request failed; lib/api.ts has shown it). */
  stopped?: string;
}

const OUTCOME = { done: { label: 'Done', color: 'green' }, refused: { label: 'Refused', color: 'orange' }, failed: { label: 'Failed', color: 'red' } } as const;

export default function BulkActionsImpl({ noun, selection, total, rows, actions, api, listLabel, allLabel }: BulkActionsProps<unknown, BulkItemResult>) {
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [previewing, setPreviewing] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const chosen = selection.rows;
  const nouns = (n: number) => `${format.format(n)} ${n === 1 ? noun.one : noun.many}`;
  const shown = selection.allMatching ? actions.filter((a) => rows.some(a.allowed)) : actions.filter((a) => chosen.some(a.applies));

  const ask = async (action: BulkAction<unknown>) => {
    if (!selection.allMatching) {
      const rows = chosen.filter(action.applies);
      setConfirming({ action, plan: { items: rows.map(api.item) }, count: rows.length, skipped: chosen.length - rows.length });
      return;
    }
    setPreviewing(action.key);
    try {
      // The list's own total names what matches (the pending tasks' preview counts every row of its organizations).
      const { actionable } = await api.preview(action.key);
      setConfirming({ action, plan: { match: api.match, count: actionable }, count: actionable, skipped: total - actionable, matching: total });
    } catch {
      // lib/api.ts has shown why.
    } finally {
      setPreviewing(null);
    }
  };

  const run = async () => {
    if (!confirming) return;
    const { action, plan } = confirming;
    const results: BulkItemResult[] = [];
    let stopped: string | undefined;
    setProgress(0);
    try {
      await runBulk((body) => api.send(action.key, body), plan, results, setProgress);
    } catch (error) {
      stopped = error instanceof Error ? error.message : 'The request failed.';
    }
    setProgress(null);
    setConfirming(null);
    selection.clear();
    api.onFinished();
    const done = results.filter((r) => r.outcome === 'done').length;
    if (done > 0) notifySuccess(`${nouns(done)} ${action.done}.`);
    setAnswer({ action, results, stopped });
  };

  const title = confirming
    ? confirming.count === 0 ? `No ${noun.many} to ${confirming.action.label.toLowerCase()}` : `${confirming.action.label} ${nouns(confirming.count)}?`
    : '';

  return (
    <>
      {chosen.length === 0 && !selection.allMatching ? null : (
        <div className={classes.bar} role="region" aria-label={`Bulk actions${listLabel ? `: ${listLabel}` : ''}`}>
          <Text fw={600} size="sm" className={classes.count} aria-live="polite">
            {selection.allMatching ? `All ${nouns(total)} that match are selected` : `${format.format(chosen.length)} selected`}
          </Text>
          {!selection.allMatching && total > chosen.length ? (
            <Button variant="subtle" size="compact-sm" onClick={selection.selectAllMatching}>
              {allLabel ? allLabel(format.format(total)) : `Select all ${format.format(total)} that match the filter`}
            </Button>
          ) : null}
          <Button variant="subtle" size="compact-sm" onClick={selection.clear}>
            Clear selection
          </Button>
          <Group gap="xs">
            {shown.map((action) => (
              <Button
                key={action.key}
                size="sm"
                variant={action.destructive ? 'outline' : 'filled'}
                color={action.destructive ? 'red' : undefined}
                loading={previewing === action.key}
                disabled={previewing !== null && previewing !== action.key}
                onClick={() => void ask(action)}
              >
                {selection.allMatching ? action.label : `${action.label} (${format.format(chosen.filter(action.applies).length)})`}
              </Button>
            ))}
          </Group>
        </div>
      )}

      <ConfirmModal
        opened={confirming !== null && confirming.count > 0}
        onClose={() => (progress === null ? setConfirming(null) : undefined)}
        title={title}
        confirmLabel={confirming ? `${confirming.action.label} ${format.format(confirming.count)}` : ''}
        pending={progress !== null}
        danger={!!confirming?.action.destructive}
        onConfirm={() => void run()}
      >
        {confirming ? (
          <>
            {confirming.matching !== undefined
              ? `Of the ${nouns(confirming.matching)} that match, ${format.format(confirming.count)} can be ${confirming.action.done} by you. `
              : ''}
            Each is {confirming.action.done} on its own and journaled; one that is refused does not stop the others.
            {confirming.skipped > 0 && confirming.matching === undefined
              ? ` ${format.format(confirming.skipped)} of the selected cannot be ${confirming.action.done} and stay as they are.`
              : ''}
            {progress !== null ? (
              <Text component="span" display="block" mt="sm" fw={600} aria-live="polite">
                {format.format(progress)} of {format.format(confirming.count)} answered…
              </Text>
            ) : null}
          </>
        ) : null}
      </ConfirmModal>

      <Modal
        opened={confirming !== null && confirming.count === 0}
        onClose={() => setConfirming(null)}
        title={title}
        centered
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack gap="lg">
          <Text size="sm">
            None of the {confirming?.matching !== undefined ? nouns(confirming.matching) : noun.many} that match can be {confirming?.action.done} by you: they are in another state,
            or in organizations where your roles do not allow it.
          </Text>
          <Group justify="flex-end">
            <Button onClick={() => setConfirming(null)} data-autofocus>
              OK
            </Button>
          </Group>
        </Stack>
      </Modal>

      {answer ? <AnswerModal answer={answer} name={api.name} nouns={nouns} onClose={() => setAnswer(null)} /> : null}
    </>
  );
}

/** Per item what happened: the refused and failed ones first, with the reason. */
function AnswerModal({ answer, name, nouns, onClose }: { answer: Answer; name: (r: BulkItemResult) => string; nouns: (n: number) => string; onClose: () => void }) {
  const { action, results, stopped } = answer;
  const count = (o: BulkItemResult['outcome']) => results.filter((r) => r.outcome === o).length;
  const ordered = [...results.filter((r) => r.outcome !== 'done'), ...results.filter((r) => r.outcome === 'done')];
  const summary = [`${nouns(count('done'))} ${action.done}`, count('refused') ? `${format.format(count('refused'))} refused` : '', count('failed') ? `${format.format(count('failed'))} failed` : '']
    .filter(Boolean)
    .join(', ');
  return (
    <Modal opened onClose={onClose} title={`${action.label}: the result`} centered size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack gap="md">
        <Text fw={600}>{summary}.</Text>
        {stopped ? <Text size="sm" c="red">Stopped before the end: {stopped}</Text> : null}
        {ordered.length > 0 ? (
          <ul className={classes.results} tabIndex={0} aria-label="Result per item">
            {ordered.map((r, i) => (
              <li key={i}>
                <Group gap="xs" wrap="nowrap" align="flex-start">
                  <Badge color={OUTCOME[r.outcome].color} variant="light" style={{ flex: 'none' }}>
                    {OUTCOME[r.outcome].label}
                  </Badge>
                  <Text size="sm" className="break-anywhere">
                    {name(r)}
                    {r.outcome === 'done' ? null : (
                      <Text component="span" size="sm" c="dimmed" display="block">
                        {r.message}
                      </Text>
                    )}
                  </Text>
                </Group>
              </li>
            ))}
          </ul>
        ) : null}
        <Group justify="flex-end">
          <Button onClick={onClose} data-autofocus>
            Close
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
