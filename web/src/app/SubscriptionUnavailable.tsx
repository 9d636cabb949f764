/** Signed in, but billing could not say what the subscription allows: an error state, never "signed out". */
import { Link } from 'react-router-dom';
import { Button } from '../ui/Button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/Card';

export function SubscriptionUnavailable({ onRetry }: { onRetry?: () => Promise<void> }) {
  return (
    <div className="page stack">
      <Card role="alert">
        <CardHeader>
          <CardTitle>We couldn&apos;t check your subscription</CardTitle>
          <CardDescription>
            You are still signed in, and your check-ins are safe. This is on our side; please try again in a moment.
          </CardDescription>
        </CardHeader>
        <CardContent className="stack">
          {onRetry && <Button onClick={() => void onRetry()}>Try again</Button>}
          <Link to="/settings">Go to Settings</Link>
        </CardContent>
      </Card>
    </div>
  );
}
