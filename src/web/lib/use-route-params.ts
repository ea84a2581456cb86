import { useLocation } from 'react-router';
import { matchRoute } from '@common/routes';

/** The current route's parameters (`:courseId` …) from the one route table. */
export function useRouteParams(): Record<string, string> {
  const { pathname } = useLocation();
  return matchRoute(pathname)?.params ?? {};
}
