/**
 * /admin/newsletter: subscriber stats and the composer. The server decides who is the admin (the
 * stats query answers FORBIDDEN to anyone else), so the page shows the alert on that answer. A send
 * goes through a confirmation that shows who it reaches and the e-mail as the service renders it; a
 * test copy goes to the admin alone first.
 */
import { useApolloClient, useMutation, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { errorCode, serverMessage } from '../../graphql/errors';
import {
  NewsletterSendCheckDocument,
  NewsletterStatsDocument,
  SendNewsletterDocument,
  SendTestNewsletterDocument,
  type NewsletterSendCheckQuery,
} from '../../graphql/operations.generated';
import { refused } from '../../lib/serverRefusal';
import { useForm } from '../../lib/useForm';
import { usePageTitle } from '../../lib/usePageTitle';
import { Button } from '../../ui/Button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { TextField } from '../../ui/Field';
import { Label } from '../../ui/Label';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/Toast';
import './admin.css';
import {
  NEWSLETTER_TEXTAREA_ROWS,
  contentCountOf,
  contentTooLongMessage,
  isComposeComplete,
  isSendable,
  pendingOf,
  previewOf,
  sendToLabel,
  subscribersOf,
} from './newsletterCompose';

/** Send and Send a test both need a subject and some content. */
const missingInformation = {
  title: 'Missing information',
  description: 'Please fill in both subject and content.',
} as const;

export function AdminNewsletterPage() {
  usePageTitle('Newsletter');
  const apollo = useApolloClient();
  const stats = useQuery(NewsletterStatsDocument, { fetchPolicy: 'network-only' });
  const [send, { loading: sending }] = useMutation(SendNewsletterDocument);
  const [sendTest, { loading: sendingTest }] = useMutation(SendTestNewsletterDocument);
  /** The confirmation's facts, fetched when Send is pressed; null while the dialog is closed. */
  const [check, setCheck] = useState<NewsletterSendCheckQuery | null>(null);
  // Send first asks the service who the newsletter would reach and how it renders, then asks the admin.
  const compose = useForm({
    initial: { subject: '', content: '' },
    check: (draft) => (isComposeComplete(draft.subject, draft.content) ? null : missingInformation),
    errorsOnChange: 'clear',
    submit: async (draft) => {
      const { data } = await apollo.query({
        query: NewsletterSendCheckDocument,
        variables: draft,
        fetchPolicy: 'network-only',
      });
      if (data) setCheck(data);
    },
    failed: refused({ title: 'This newsletter can’t be sent yet', fallback: 'Please try again.' }),
  });
  const { subject, content } = compose.values;

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

  const onConfirm = async () => {
    try {
      const { data } = await send({ variables: { subject, content } });
      const count = data?.sendNewsletter.sentCount ?? 0;
      toast({ title: 'Newsletter sent successfully!', description: `Delivered to ${count} subscribers` });
      setCheck(null);
      compose.reset();
      await stats.refetch();
    } catch (error) {
      setCheck(null);
      toast({
        title: 'Failed to send newsletter',
        description: serverMessage(error) ?? 'Please try again.',
        variant: 'destructive',
      });
    }
  };

  const onSendTest = async () => {
    if (!isComposeComplete(subject, content)) {
      toast({ variant: 'destructive', ...missingInformation });
      return;
    }
    try {
      const { data } = await sendTest({ variables: { subject, content } });
      toast({
        title: 'Test sent to you',
        description: `It went to ${data?.sendTestNewsletter.sentTo ?? 'your address'} only, with “[Test]” before the subject.`,
      });
    } catch (error) {
      toast({
        title: 'The test didn’t go',
        description: serverMessage(error) ?? 'Please try again.',
        variant: 'destructive',
      });
    }
  };

  const tooLong = contentTooLongMessage(content);
  const contentError = tooLong ?? compose.errors.content;
  const audience = check?.newsletterAudience.activeSubscribers ?? 0;
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
          <form className="stack" onSubmit={compose.onSubmit}>
            <TextField id="newsletter-subject" label="Subject" {...compose.field('subject')} />
            <div className="field">
              <Label htmlFor="newsletter-content">Content</Label>
              <textarea
                id="newsletter-content"
                className="input"
                rows={NEWSLETTER_TEXTAREA_ROWS}
                value={content}
                aria-invalid={contentError ? true : undefined}
                aria-describedby={
                  contentError ? 'newsletter-content-count newsletter-content-error' : 'newsletter-content-count'
                }
                onChange={compose.field('content').onChange}
              />
              <span id="newsletter-content-count" className="field__hint" data-testid="content-count">
                {contentCountOf(content)}
              </span>
              {contentError && (
                <p id="newsletter-content-error" className="field__error" role="alert">
                  {contentError}
                </p>
              )}
            </div>
            {(subject || content) && (
              <section aria-labelledby="preview-title" className="callout newsletter-draft-preview">
                <h2 id="preview-title" className="notice__title">
                  Preview
                </h2>
                <p>
                  <strong>{subject}</strong>
                </p>
                <p>{previewOf(content)}</p>
              </section>
            )}
            <Button
              type="button"
              variant="outline"
              block
              loading={sendingTest}
              disabled={!isSendable(subject, content) || sendingTest}
              onClick={() => void onSendTest()}
            >
              Send a test to me
            </Button>
            <Button type="submit" block disabled={!isSendable(subject, content) || sending || compose.pending}>
              {sending ? 'Sending...' : compose.pending ? 'Checking...' : 'Send to All Subscribers'}
            </Button>
          </form>
        </CardContent>
      </Card>

      <ConfirmDialog
        open={check !== null}
        wide
        title="Send this newsletter?"
        description={
          audience === 0
            ? 'No one has confirmed a subscription yet, so this would reach no one.'
            : 'It goes out now to every confirmed subscriber and can’t be called back.'
        }
        confirmLabel={sendToLabel(audience)}
        confirmVariant="primary"
        busy={sending}
        onConfirm={() => void onConfirm()}
        onOpenChange={(open) => !open && setCheck(null)}
      >
        {check && (
          <div className="stack">
            <p>
              Subject: <strong data-testid="confirm-subject">{check.newsletterPreview.subject}</strong>
            </p>
            <p>
              To: <strong data-testid="confirm-audience">{subscribersOf(audience)}</strong>
            </p>
            {/* The e-mail as recipients get it; sandboxed, so nothing in it runs or reaches this page. */}
            <iframe
              title="The newsletter as subscribers will see it"
              className="newsletter-preview"
              sandbox=""
              srcDoc={check.newsletterPreview.html}
            />
          </div>
        )}
      </ConfirmDialog>
    </div>
  );
}
