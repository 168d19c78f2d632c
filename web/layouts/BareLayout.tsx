/** The bare layout: no header, no sidebar (Welcome and the error screens). */
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { Loading } from '../components/Loading';
import { MAIN_ID } from './SkipLink';

export default function BareLayout() {
  return (
    <main id={MAIN_ID}>
      <Suspense fallback={<Loading />}>
        <Outlet />
      </Suspense>
    </main>
  );
}
