/**
 * /admin/newsletter: subscriber stats and the composer. The server decides who is the admin (the
 * stats query answers FORBIDDEN to anyone else), so the page shows the alert on that answer.
 */
import { useMutation, useQuery } from '@apollo/client/react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { errorCode, serverMessage } from '../../graphql/errors';
import { NewsletterStatsDocument, SendNewsletterDocument } from '../../graphql/operations.generated';
import { usePageTitle } from '../../lib/usePageTitle';
import { Button } from '../../ui/Button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { TextField } from '../../ui/Field';
import { Label } from '../../ui/Label';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/Toast';
import { NEWSLETTER_TEXTAREA_ROWS, isComposeComplete, pendingOf, previewOf } from './newsletterCompose';

export function AdminNewsletterPage() {
  usePageTitle('Newsletter');
  const stats = useQuery(NewsletterStatsDocument, { fetchPolicy: 'network-only' });
  const [send, { loading: sending }] = useMutation(SendNewsletterDocument);
  const [subject, setSubject] = useState('');
  const [content, setContent] = useState('');

  const back = (
    <Link to="/settings" className="text-muted">
      ← Back to Settings
    </Link>
  );
  if (stats.error && errorCode(stats.error) === 'FORBIDDEN') {
    return (
      <div className="page stack">
        {back}
        <div className="callout" role="alert">
          Admin access required. Please contact support if you believe this is an error.
        </div>
      </div>
    );
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!isComposeComplete(subject, content)) {
      toast({
        title: 'Missing information',
        description: 'Please fill in both subject and content.',
        variant: 'destructive',
      });
      return;
    }
    try {
      const { data } = await send({ variables: { subject, content } });
      const count = data?.sendNewsletter.sentCount ?? 0;
      toast({ title: 'Newsletter sent successfully!', description: `Delivered to ${count} subscribers` });
      setSubject('');
      setContent('');
      await stats.refetch();
    } catch (error) {
      toast({
        title: 'Failed to send newsletter',
        description: serverMessage(error) ?? 'Please try again.',
        variant: 'destructive',
      });
    }
  };

  const numbers = stats.data?.newsletterStats;
  const last = numbers?.lastCampaign;
  return (
    <div className="page stack">
      {back}
      <header className="page__header">
        <h1 className="page__title">Newsletter</h1>
        <p className="text-muted">Write to everyone who confirmed their subscription.</p>
      </header>

      <Card aria-labelledby="subscriber-stats-title">
        <CardHeader>
          <CardTitle id="subscriber-stats-title">Subscribers</CardTitle>
        </CardHeader>
        <CardContent>
          {numbers ? (
            <dl className="stats-grid">
              <div>
                <dt>Total</dt>
                <dd data-testid="stat-total">{numbers.total}</dd>
              </div>
              <div>
                <dt>Active</dt>
                <dd data-testid="stat-active">{numbers.active}</dd>
              </div>
              <div>
                <dt>Pending</dt>
                <dd data-testid="stat-pending">{pendingOf(numbers)}</dd>
              </div>
            </dl>
          ) : (
            <Spinner />
          )}
          {last && (
            <p className="text-muted">
              Last send, “{last.subject}”: {last.sent} of {last.recipients} delivered
              {last.failed > 0 ? `, ${last.failed} failed` : ''}.
            </p>
          )}
        </CardContent>
      </Card>

      <Card aria-labelledby="compose-title">
        <CardHeader>
          <CardTitle id="compose-title">Compose</CardTitle>
          <CardDescription>The content may contain HTML; unsafe parts are removed before sending.</CardDescription>
        </CardHeader>
        <CardContent>
          <form className="stack" onSubmit={(event) => void onSubmit(event)}>
            <TextField
              id="newsletter-subject"
              label="Subject"
              value={subject}
              onChange={(e) => setSubject(e.target.value)}
            />
            <div className="field">
              <Label htmlFor="newsletter-content">Content</Label>
              <textarea
                id="newsletter-content"
                className="input"
                rows={NEWSLETTER_TEXTAREA_ROWS}
                value={content}
                onChange={(e) => setContent(e.target.value)}
              />
            </div>
            {(subject || content) && (
              <section aria-labelledby="preview-title" className="callout">
                <h2 id="preview-title" className="notice__title">
                  Preview
                </h2>
                <p>
                  <strong>{subject}</strong>
                </p>
                <p>{previewOf(content)}</p>
              </section>
            )}
            <Button type="submit" block disabled={!isComposeComplete(subject, content) || sending}>
              {sending ? 'Sending...' : 'Send to All Subscribers'}
            </Button>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
