/** Paths of the certificate screens; the details path is in lib/navigation.ts. */
import { organizationPath } from '../../lib/navigation';

export const certificatesPath = (organizationId: string) => organizationPath(organizationId, 'certificates');

export const uploadCertificatePath = (organizationId: string) => `${certificatesPath(organizationId)}/upload`;

/**
 * The DN of a details path, taken from the encoded path itself: the router's params turn an
 * encoded "%2F" into "/", which would change a DN that holds the text "%2F".
 */
export function dnOfPath(pathname: string): string {
  const segment = /\/certificates\/([^/]+)\/?$/.exec(pathname)?.[1] ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
