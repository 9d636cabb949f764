/**
 * /subscription. This slice shows the current status and the
 * Premium plan; starting the trial (the payment form) comes with the billing issue.
 */
import { Navigate } from 'react-router-dom';
import { BRAND } from '../../brand';
import { PREMIUM_PRICE_LABEL, TRIAL_DAYS } from '../../constants';
import { usePageTitle } from '../../lib/usePageTitle';
import {
  epochSecondsToLocalDate,
  isActivePremium,
  subscriptionBadgeLabel,
  subscriptionDescription,
  subscriptionDotColour,
} from './subscriptionStatus';
import { useSession } from '../../gating/useSession';
import { Badge } from '../../ui/Badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { CheckIcon } from '../../ui/icons';
import { FullPageSpinner } from '../../ui/Spinner';

export const PREMIUM_FEATURES = [
  'Unlimited personalized quotes',
  'Advanced emotional intelligence',
  'Priority support',
  'Advanced wellness analytics',
  'Export your data',
  'Early access to new features',
] as const;

export function SubscriptionPage() {
  usePageTitle('Subscription');
  const session = useSession();

  if (session.status === 'loading') return <FullPageSpinner />;
  if (session.status === 'signedOut') return <Navigate to="/auth" replace />;

  const status = session.subscription;
  const premium = isActivePremium(status);

  return (
    <div className="page stack">
      <header className="page__header">
        <h1 className="page__title">Subscription</h1>
        <p className="text-muted">Unlock your full wellness journey with {BRAND.name} Premium.</p>
      </header>

      {premium && (
        <div className="callout callout--success" role="status">
          <Badge variant="success">You&apos;re Premium!</Badge>
          <p>
            Thank you for supporting {BRAND.name}.
            {status.currentPeriodEnd != null &&
              (status.cancelAtPeriodEnd
                ? ` Your access continues until ${epochSecondsToLocalDate(status.currentPeriodEnd)}.`
                : ` Your plan renews on ${epochSecondsToLocalDate(status.currentPeriodEnd)}.`)}
          </p>
        </div>
      )}

      <Card>
        <CardHeader>
          <CardTitle>Current Status</CardTitle>
        </CardHeader>
        <CardContent className="status-row">
          <span className={`status-dot status-dot--${subscriptionDotColour(status)}`} aria-hidden="true" />
          <Badge variant={status.isTrialing || status.planType === 'premium' ? 'default' : 'secondary'}>
            {subscriptionBadgeLabel(status)}
          </Badge>
          <span className="text-muted">{subscriptionDescription(status)}</span>
        </CardContent>
      </Card>

      <Card className="plan-card" aria-labelledby="premium-plan-title">
        <CardHeader>
          <div className="plan-card__top">
            <CardTitle id="premium-plan-title">Premium</CardTitle>
            <Badge variant="info">Recommended</Badge>
          </div>
          <p className="plan-card__price">
            <span className="plan-card__amount">{PREMIUM_PRICE_LABEL}</span>{' '}
            <span className="text-muted">per month</span>
          </p>
          <CardDescription>{TRIAL_DAYS}-day free trial included</CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="feature-list">
            {PREMIUM_FEATURES.map((feature) => (
              <li key={feature}>
                <CheckIcon size={18} className="feature-list__icon" />
                {feature}
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
    </div>
  );
}
