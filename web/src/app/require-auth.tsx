import { Navigate, Outlet } from 'react-router';
import { useAppSelector } from './hooks';
import { selectAuthStatus, selectCompany, selectUser } from '../lib/auth/auth-slice';
import { PageLoading } from '../components/page-loading';

/**
 * Spec part 1 §2 and §6: every path that is not public needs a signed-in user with a company;
 * anyone else goes to /login. While the session is still being looked up nothing is decided.
 */
export function RequireAuth() {
  const status = useAppSelector(selectAuthStatus);
  const user = useAppSelector(selectUser);
  const company = useAppSelector(selectCompany);
  if (status === 'loading') {
    return <PageLoading label="Checking your session" />;
  }
  if (status !== 'authenticated' || !user || !company) return <Navigate to="/login" replace />;
  return <Outlet />;
}
