/** /help: people to reach right now. Public, never behind sign-in or the paywall. */
import { useQuery } from '@apollo/client/react';
import { Link } from 'react-router-dom';
import { SupportResourcesDocument } from '../../graphql/operations.generated';
import { usePageTitle } from '../../lib/usePageTitle';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/Card';
import { Spinner } from '../../ui/Spinner';
import { PublicFrame } from '../public/PublicFrame';
import { HelpLines } from './SupportResourcesCard';
// The public pages' styles: this page wears their frame but stays out of their Apollo-free chunk.
import '../public/public.css';
import { countryFromLanguage } from './checkinRules';

const regionNames: Record<string, string> = {
  GB: 'United Kingdom',
  US: 'United States',
  international: 'Anywhere else',
};

export function HelpPage() {
  usePageTitle('Need help now?');
  const { data, loading, error } = useQuery(SupportResourcesDocument, {
    variables: { country: countryFromLanguage(navigator.language) },
  });
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
        {loading && <Spinner label="Loading helplines" />}
        {error && (
          <p role="alert">
            We couldn&apos;t load the list just now. In the UK call Samaritans on 116 123; in the US call or text 988;
            if your life is in danger, call your local emergency number.
          </p>
        )}
        {data?.supportResources.map((list) => (
          <Card key={list.region}>
            <CardHeader>
              <CardTitle>{regionNames[list.region] ?? list.region}</CardTitle>
            </CardHeader>
            <CardContent className="stack">
              <HelpLines list={list} />
            </CardContent>
          </Card>
        ))}
        <Link to="/">Back to home</Link>
      </article>
    </PublicFrame>
  );
}
