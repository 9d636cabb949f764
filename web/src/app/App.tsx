import { RouterProvider } from 'react-router-dom';
import { AppFrame } from './AppFrame';
import { router } from './router';

/** The app. Apollo Client is not here: app/ApolloRoutes.tsx brings it with the first page that needs it. */
export function App() {
  return (
    <AppFrame>
      <RouterProvider router={router} />
    </AppFrame>
  );
}
