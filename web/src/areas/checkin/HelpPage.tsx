/**
 * /help: people to reach right now. Public, never behind sign-in or the paywall, and read from the one
 * crisis-resource dataset in the bundle, so it shows at once, with no request to fail.
 */
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { allSupportResources, supportResourcesFor } from '@haven/domain/src/support-resources';
import { chooseCountry, usePersonCountry } from '../../lib/country';
import { usePageTitle } from '../../lib/usePageTitle';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/Card';
import { CountryPicker } from '../../ui/CountryPicker';
import { PublicFrame } from '../public/PublicFrame';
import { SAFETY_PLAN_PATH } from '../public/publicLinks';
import { HelpLines } from './SupportResourcesCard';
// The public pages' styles: this page wears their frame but stays out of their Apollo-free chunk.
import '../public/public.css';

export function HelpPage() {
  usePageTitle('Need help now?');
  // Prerendered, the page starts with the country the server put first (the person's cookie, else their
  // browser's language).
  const [country, setCountry] = usePersonCountry();
  const mine = useMemo(() => supportResourcesFor(country), [country]);
  const others = useMemo(
    () => allSupportResources(country).filter((list) => list.region !== mine.region),
    [country, mine],
  );
  const onPick = (code: string | null) => {
    chooseCountry(code);
    setCountry(code);
  };
  // The public pages' frame (their header, margins and footer), so the page looks finished at any width.
  return (
    <PublicFrame>
      <article className="doc stack">
        <h1 className="doc__title">Need help now?</h1>
        <p>
          You do not have to go through this alone. People at these services are ready to listen right now, for free.
          Reaching out is a strong and sensible step.
        </p>
        <p className="text-muted">Haven is not therapy or a crisis service, but these people can help.</p>
        <CountryPicker id="help-country" value={country} onPick={onPick} />
        <Card aria-label={`Help in ${mine.place}`} role="region">
          <CardHeader>
            <CardTitle>{mine.place}</CardTitle>
          </CardHeader>
          <CardContent className="stack">
            <HelpLines list={mine} />
          </CardContent>
        </Card>
        <Card aria-labelledby="help-safety-plan" role="region">
          <CardHeader>
            <CardTitle id="help-safety-plan">Your safety plan</CardTitle>
          </CardHeader>
          <CardContent className="stack">
            <p>
              Write down your warning signs, what helps and who you can call, so they are there in a hard moment. Only
              you can see it.
            </p>
            <Link to={SAFETY_PLAN_PATH}>Open your safety plan</Link>
          </CardContent>
        </Card>
        <h2>Every other country</h2>
        {others.map((list) => (
          <details key={list.region} className="help-country">
            <summary>{list.place}</summary>
            <HelpLines list={list} />
          </details>
        ))}
        <Link to="/">Back to home</Link>
      </article>
    </PublicFrame>
  );
}
