/**
 * The public landing page (`/` when signed out). This slice has the hero, what the
 * product is, the call to action and the not-therapy notice; the full landing page
 * (loader, sections, newsletter) comes later.
 */
import { Link } from 'react-router-dom';
import { BRAND } from '../../brand';
import { PREMIUM_PRICE_LABEL, TRIAL_DAYS } from '../../constants';
import { usePageTitle } from '../../lib/usePageTitle';
import { buttonClass } from '../../ui/Button';
import { Card, CardContent } from '../../ui/Card';
import { Logo } from '../../ui/Logo';

export function LandingPage() {
  usePageTitle();
  return (
    <div className="landing">
      <header className="landing__bar">
        <Link to="/" className="logo-link" aria-label={`${BRAND.name} home`}>
          <Logo />
        </Link>
        <Link to="/auth" className={buttonClass({ variant: 'ghost' })}>
          Sign In
        </Link>
      </header>

      <main className="landing__main">
        <section className="hero" aria-labelledby="hero-title">
          <h1 id="hero-title" className="hero__title">
            Track. Reflect. Thrive.
          </h1>
          <p className="hero__lead">
            {BRAND.name} is your daily emotional wellness companion. Rate how you feel in a quick check-in and receive a
            personalised, supportive message written just for this moment.
          </p>
          <Link to="/auth" className={buttonClass({ size: 'lg' })}>
            Start Free Trial
          </Link>
          <p className="hero__note text-muted">
            {TRIAL_DAYS}-day free trial, then {PREMIUM_PRICE_LABEL} per month. Cancel anytime.
          </p>
        </section>

        <Card className="notice" role="note" aria-labelledby="notice-title">
          <CardContent>
            <h2 id="notice-title" className="notice__title">
              Important notice
            </h2>
            <p>
              {BRAND.name} supports self-awareness and wellness habits. It is not therapy and is not a substitute for
              professional mental health care, diagnosis or treatment. If you are in crisis or thinking about harming
              yourself, call or text 988 (US) or contact your local emergency services.
            </p>
          </CardContent>
        </Card>
      </main>

      <footer className="landing__footer text-muted">
        © {new Date().getFullYear()} {BRAND.name}
      </footer>
    </div>
  );
}
