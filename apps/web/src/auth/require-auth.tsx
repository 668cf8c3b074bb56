import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { hasValidToken } from './token-storage';

/** The /dashboard guard: re-checked on every navigation, so a token that expires sends the user to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  useLocation(); // re-render, and so re-check, on each navigation
  if (!hasValidToken()) return <Navigate to="/login" replace />;
  return children;
}
