/**
 * A hint on hover, drawn by Mantine's Tooltip, whose code (Tooltip and floating-ui, about 18 KB
 * gzipped) loads on the first hover, not with the screen. The trigger is the caller's own element,
 * never replaced, so hover and focus stay on it; the tooltip is placed at it (Tooltip `target`).
 * Like Mantine's default, it shows on hover only, and Escape hides it (WCAG 1.4.13). The trigger
 * carries its name itself (aria-label): the hint is for the eye.
 */
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';

const Tooltip = lazy(() => import('./tooltip-impl'));

export interface HintTrigger<T extends HTMLElement> {
  ref: RefObject<T | null>;
  onMouseEnter: () => void;
  onMouseLeave: () => void;
}

export function HoverHint<T extends HTMLElement>({ label, children }: { label: string; children: (trigger: HintTrigger<T>) => ReactNode }) {
  const ref = useRef<T>(null);
  const [opened, setOpened] = useState(false);
  const [used, setUsed] = useState(false);

  useEffect(() => {
    if (!opened) return;
    const hideOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpened(false);
    };
    window.addEventListener('keydown', hideOnEscape);
    return () => window.removeEventListener('keydown', hideOnEscape);
  }, [opened]);

  const trigger: HintTrigger<T> = {
    ref,
    onMouseEnter: () => {
      setUsed(true);
      setOpened(true);
    },
    onMouseLeave: () => setOpened(false),
  };
  return (
    <>
      {children(trigger)}
      {used ? (
        <Suspense fallback={null}>
          <Tooltip target={ref} label={label} opened={opened} withArrow />
        </Suspense>
      ) : null}
    </>
  );
}
