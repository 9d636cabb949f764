import { BrowserRouter } from 'react-router-dom';
import { AppFrame } from './AppFrame';
import { RouteTree } from './RouteTree';

/** The app. Apollo Client is not here: app/ApolloRoutes.tsx brings it with the first page that needs it. */
export function App() {
  return (
    <AppFrame>
      <BrowserRouter>
        <RouteTree />
      </BrowserRouter>
    </AppFrame>
  );
}
