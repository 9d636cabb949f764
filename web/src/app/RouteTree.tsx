/**
 * Renders the route table (app/routes.tsx) under a declarative router: `BrowserRouter` in the browser (app/App.tsx),
 * `StaticRouter` in the build's prerender step (prerender/entry.tsx). The routes load no data (no loaders, actions
 * or fetchers), so the data router would add about 19 kB of gzipped JavaScript to every page for nothing; its two
 * other services are kept here: the root route's `errorElement` shown when a page throws (this boundary), and
 * the scroll positions (app/ScrollRestoration.tsx).
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation, useRoutes, type Location } from 'react-router-dom';
import { routes } from './routes';

interface BoundaryProps {
  location: Location;
  fallback: ReactNode;
  children: ReactNode;
}

interface BoundaryState {
  error: unknown;
  location: Location;
}

/** As the data router's own boundary: the error element until the next navigation, which tries the page again. */
class RouteErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: undefined, location: this.props.location };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.location === state.location ? null : { error: undefined, location: props.location };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('A page failed to render', error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.error === undefined ? this.props.children : this.props.fallback;
  }
}

export function RouteTree() {
  const location = useLocation();
  const element = useRoutes(routes);
  return (
    <RouteErrorBoundary location={location} fallback={routes[0]?.errorElement}>
      {element}
    </RouteErrorBoundary>
  );
}
