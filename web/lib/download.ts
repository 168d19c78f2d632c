/**
 * Downloads of files behind the bearer token (the piston routes file and certificate archive, the lists' CSV exports):
 * a plain <a href> would not send the Authorization header, so the file is fetched through the
 * API client and saved from an object URL.
 */
import { apiRequest } from './api';
import { notifyError } from './notifications';

/** Saves a Blob under a file name, as a download link the browser follows (also text the page already holds). */
export function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke on the next turn: the browser has taken the file by then.
  setTimeout(() => URL.revokeObjectURL(href), 0);
}

/**
 * Fetches `path` with the access token and saves it as `fileName`. Quiet: a failed download
 * shows a toast and keeps the person on the page instead of the shared error screens.
 * Answers the response headers (the ETag, for example), or null when the download failed.
 */
export async function downloadFile(path: string, fileName: string, query?: Record<string, string | boolean | undefined>): Promise<Headers | null> {
  try {
    const { data, headers } = await apiRequest<Blob>(path, { quiet: true, responseType: 'blob', query });
    saveBlob(data, fileName);
    return headers;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    notifyError(`Could not download ${fileName}: ${reason}`);
    return null;
  }
}
