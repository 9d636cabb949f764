import { RouterProvider } from 'react-router-dom';
import { ThemeProvider } from '../theme/ThemeProvider';
import { ToastProvider } from '../ui/Toast';
import { TooltipProvider } from '../ui/Tooltip';
import { router } from './router';

/** The app's frame. Apollo Client is not here: app/ApolloRoutes.tsx brings it with the first page that needs it. */
export function App() {
  return (
    <ThemeProvider>
      <TooltipProvider>
        <ToastProvider>
          <RouterProvider router={router} />
        </ToastProvider>
      </TooltipProvider>
    </ThemeProvider>
  );
}
