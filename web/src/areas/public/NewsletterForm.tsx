/**
 * The landing page's newsletter sign-up: one e-mail field (prefilled from `?email=` when a link carries
 * it), a toast for each outcome, and a confirmation in place of the form once the server accepted it.
 */
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useForm } from '../../lib/useForm';
import { Button } from '../../ui/Button';
import { Input } from '../../ui/Input';
import { Label } from '../../ui/Label';
import { toast } from '../../ui/toastStore';
import { EMAIL_REQUIRED_TOAST, SUBSCRIBED_TOAST, subscribeToNewsletter, subscriptionFailedToast } from './newsletter';

export function NewsletterForm() {
  const [searchParams] = useSearchParams();
  const [subscribedEmail, setSubscribedEmail] = useState<string | null>(null);
  const { values, field, set, pending, onSubmit } = useForm({
    initial: { email: '' },
    check: ({ email }) => (email.trim() ? null : EMAIL_REQUIRED_TOAST),
    submit: async ({ email }) => {
      const trimmed = email.trim();
      const result = await subscribeToNewsletter(trimmed);
      if (result.ok) {
        setSubscribedEmail(trimmed);
        toast(SUBSCRIBED_TOAST);
      } else {
        toast(subscriptionFailedToast(result.message));
      }
    },
  });
  // Prefilled once the page has started: its prerendered HTML, built without the link's address, has the field empty.
  const linkedEmail = searchParams.get('email');
  useEffect(() => {
    if (linkedEmail) set('email', linkedEmail);
  }, [linkedEmail]);

  if (subscribedEmail) {
    return (
      <div className="newsletter__done" role="status">
        <h3 className="newsletter__done-title">Welcome aboard!</h3>
        <p>
          We sent a confirmation link to <strong>{subscribedEmail}</strong>. Open it to start getting the weekly
          newsletter. You can unsubscribe from any issue with one click.
        </p>
      </div>
    );
  }

  return (
    // noValidate: the empty field gets Haven's toast rather than the browser's bubble.
    <form className="newsletter__form" onSubmit={onSubmit} noValidate>
      <Label htmlFor="newsletter-email">Email address</Label>
      <div className="newsletter__row">
        <Input
          id="newsletter-email"
          type="email"
          name="email"
          autoComplete="email"
          placeholder="you@example.com"
          value={values.email}
          onChange={field('email').onChange}
        />
        <Button type="submit" loading={pending}>
          Subscribe
        </Button>
      </div>
    </form>
  );
}
