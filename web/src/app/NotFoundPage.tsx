import { Link } from 'react-router-dom';
import { usePageTitle } from '../lib/usePageTitle';
import { buttonClass } from '../ui/Button';
import { Logo } from '../ui/Logo';

export function NotFoundPage() {
  usePageTitle('404 Page Not Found');
  return (
    <main className="full-page-center not-found">
      <Logo />
      <h1 className="not-found__title">404 Page Not Found</h1>
      <p className="text-muted">The page you are looking for does not exist or has moved.</p>
      <Link to="/" className={buttonClass()}>
        Go to the home page
      </Link>
    </main>
  );
}
