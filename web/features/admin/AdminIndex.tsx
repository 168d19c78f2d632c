/** /admin: pending tasks (SPEC.md §2), or the first admin screen the member may see. */
import { Navigate } from 'react-router';
import { useActor } from '../../lib/actor';
import { adminPath, allowedAdminScreens } from './screens';

export default function AdminIndex() {
  const actor = useActor();
  const first = allowedAdminScreens(actor)[0];
  return <Navigate to={adminPath(first?.path ?? 'pending-tasks')} replace />;
}
