/**
 * Home (`/` when signed in and set up). This slice has the greeting and the two check-in
 * calls to action; the calendar, recent quotes and the welcome modal come with the
 * dashboard issue.
 */
import { Link } from 'react-router-dom';
import { usePageTitle } from '../../lib/usePageTitle';
import { buttonClass } from '../../ui/Button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { WelcomeModal } from '../subscription/WelcomeModal';

export function DashboardPage() {
  usePageTitle('Home');
  return (
    <div className="page stack">
      <WelcomeModal />
      <h1 className="page__title">How are you feeling today?</h1>

      <Card>
        <CardHeader>
          <CardTitle>Log this moment</CardTitle>
          <CardDescription>Rate how you feel right now and receive a supportive message.</CardDescription>
        </CardHeader>
        <CardContent>
          <Link to="/sliders" className={buttonClass({ block: true })}>
            Start Assessment
          </Link>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Ready to check in?</CardTitle>
          <CardDescription>A quick check-in takes about a minute.</CardDescription>
        </CardHeader>
        <CardContent>
          <Link to="/sliders" className={buttonClass({ variant: 'secondary', block: true })}>
            Check in now
          </Link>
        </CardContent>
      </Card>
    </div>
  );
}
