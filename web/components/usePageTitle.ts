import { useEffect } from 'react';

export const APP_TITLE = 'Customer Portal';

/** document.title per page: "Certificates · Customer Portal". */
export function usePageTitle(title: string | null | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · ${APP_TITLE}` : APP_TITLE;
  }, [title]);
}
