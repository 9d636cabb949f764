/**
 * /help: people to reach right now. Public, never behind sign-in or the paywall, and read from the dataset the
 * app carries (no request), so it shows even when Haven's servers cannot be reached. The person's country comes
 * first (their setting, this device's choice, or the browser's guess); every other country follows.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { allSupportResources, supportResourcesFor } from '@haven/platform/src/support-resources';
import { useSession } from '../../gating/useSession';
import { usePageTitle } from '../../lib/usePageTitle';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/Card';
import { PublicFrame } from '../public/PublicFrame';
import { CountryField } from '../public/CountryField';
import { HelpLines } from '../public/CrisisLines';
import { chooseCountry, visitorCountry } from '../public/crisisHelp';
// The public pages' styles: this page wears their frame but stays out of their Apollo-free chunk.
import '../public/public.css';

export function HelpPage() {
  usePageTitle('Need help now?');
  const session = useSession();
  const setting = session.status === 'signedIn' ? session.user.country : null;
  // What was picked on this page ('' is "somewhere else"); until then the person's country.
  const [picked, setPicked] = useState<string>();
  const country = picked === undefined ? visitorCountry(setting) : picked || null;
  const first = supportResourcesFor(country);
  const others = allSupportResources(country).filter((list) => list.region !== first.region);

  const pick = (code: string) => {
    chooseCountry(code || null);
    setPicked(code);
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
        <Card aria-labelledby="help-first">
          <CardHeader>
            <CardTitle id="help-first">{first.name}</CardTitle>
          </CardHeader>
          <CardContent className="stack">
            <HelpLines list={first} />
          </CardContent>
        </Card>
        <p>
          A safety plan can help too: your own warning signs, what helps, and who to reach, written on a calmer day.{' '}
          <Link to="/safety-plan">Write or open your safety plan</Link> (it is private, and needs you to sign in).
        </p>
        <CountryField
          id="help-country"
          label="Show help for"
          noneLabel="Somewhere else"
          value={country ?? ''}
          onChange={pick}
        />
        <h2>Every country</h2>
        <div className="help-countries">
          {others.map((list) => (
            <details key={list.region}>
              <summary>{list.name}</summary>
              <HelpLines list={list} />
            </details>
          ))}
        </div>
        <Link to="/">Back to home</Link>
      </article>
    </PublicFrame>
  );
}
