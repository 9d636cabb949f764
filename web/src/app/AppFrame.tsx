import type { ReactNode } from 'react';
import { ThemeProvider } from '../theme/ThemeProvider';
import { ToastProvider } from '../ui/Toast';

/**
 * The providers around every page, in the browser (app/App.tsx) and in the build's prerender step alike. The
 * tooltips' provider is not here: only the signed-in frame shows tooltips (app/ApolloRoutes.tsx brings it).
 */
export function AppFrame({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider>
      <ToastProvider>{children}</ToastProvider>
    </ThemeProvider>
  );
}
