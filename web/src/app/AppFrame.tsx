import type { ReactNode } from 'react';
import { ThemeProvider } from '../theme/ThemeProvider';
import { ToastProvider } from '../ui/Toast';
import { TooltipProvider } from '../ui/Tooltip';

/** The providers around every page, in the browser (app/App.tsx) and in the build's prerender step alike. */
export function AppFrame({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider>
      <TooltipProvider>
        <ToastProvider>{children}</ToastProvider>
      </TooltipProvider>
    </ThemeProvider>
  );
}
