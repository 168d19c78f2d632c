/**
 * Toasts (react-toastify, SPEC.md §9), loaded with the first one: react-toastify and its container
 * (components/Toasts.tsx) are no part of any screen's first load. A toast asked for meanwhile
 * waits for the chunk, in order; react-toastify keeps toasts made before its container mounts
 * and shows them when it does.
 */
import type { ToastOptions } from 'react-toastify/unstyled';

export const TOAST_AUTO_CLOSE_MS = 5000;
export const TOAST_LIMIT = 20;

type Toastify = typeof import('react-toastify/unstyled');

let toastify: Promise<Toastify> | null = null;
const listeners = new Set<() => void>();

function loadToastify(): Promise<Toastify> {
  if (!toastify) {
    toastify = import('react-toastify/unstyled');
    // The container mounts on the next turn: a toast asked for while React renders must not
    // update another component in that render.
    queueMicrotask(() => listeners.forEach((listener) => listener()));
  }
  return toastify;
}

/** Whether a toast was asked for: App mounts the container from then on. */
export const toastsWanted = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get: (): boolean => toastify !== null,
};

type Kind = 'error' | 'warn' | 'info' | 'success';

function toast(kind: Kind, message: string, options: ToastOptions): void {
  void loadToastify().then(
    (library) => library.toast[kind](message, options),
    (error: unknown) => console.error('toasts could not be loaded', message, error),
  );
}

export interface NotificationMessage {
  message: string;
  severity?: string | null;
}

// The message is the toast id: the same message from a burst of failing calls shows once.
const options = (message: string, extra?: ToastOptions): ToastOptions => ({ toastId: message, ...extra });

/** The notification helper of SPEC.md §8: ERROR as error, WARNING as warning, else info. */
export function notify({ message, severity }: NotificationMessage, extra?: ToastOptions): void {
  if (!message) return;
  if (severity === 'ERROR') toast('error', message, options(message, extra));
  else if (severity === 'WARNING') toast('warn', message, options(message, extra));
  else toast('info', message, options(message, extra));
}

export function notifySuccess(message: string, autoClose?: number): void {
  toast('success', message, options(message, autoClose ? { autoClose } : undefined));
}

export function notifyError(message: string): void {
  toast('error', message, options(message));
}

const isMessage = (value: unknown): value is NotificationMessage =>
  typeof value === 'object' && value !== null && typeof (value as NotificationMessage).message === 'string';

/**
 * The toasts of a failed call (SPEC.md §8): a list body shows each item's message as an error;
 * a body with a message shows an error when its severity is ERROR, else a warning.
 */
export function notifyFailure(body: unknown): void {
  if (Array.isArray(body)) {
    for (const item of body) if (isMessage(item)) notifyError(item.message);
  } else if (isMessage(body)) {
    if (body.severity === 'ERROR') notifyError(body.message);
    else toast('warn', body.message, options(body.message));
  }
}
