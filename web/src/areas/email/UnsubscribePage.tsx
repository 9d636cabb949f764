/** /unsubscribe: the public form that takes an address off the newsletter list. */
import { useMutation } from '@apollo/client/react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { UnsubscribeFromNewsletterByEmailDocument } from '../../graphql/operations.generated';
import { usePageTitle } from '../../lib/usePageTitle';
import { toastRefusal } from '../../lib/serverRefusal';
import { useForm } from '../../lib/useForm';
import { Button, buttonClass } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { toast } from '../../ui/Toast';
import { LinkResultCard } from './LinkResultCard';
import { unsubscribeEmailProblem } from './emailRules';

export function UnsubscribePage() {
  usePageTitle('Unsubscribe');
  const [done, setDone] = useState(false);
  const [unsubscribe] = useMutation(UnsubscribeFromNewsletterByEmailDocument);
  const {
    field,
    pending: sending,
    onSubmit,
  } = useForm({
    initial: { email: '' },
    check: ({ email }) => unsubscribeEmailProblem(email),
    submit: async ({ email }) => {
      await unsubscribe({ variables: { email: email.trim() } });
      setDone(true);
      toast({ title: 'Successfully Unsubscribed', description: "You won't receive any more newsletters from us." });
    },
    // The refusal is told in a toast: the field has no message of its own here.
    failed: (error) => {
      toastRefusal('Unsubscribe Failed', error, 'Please try again.');
      return {};
    },
  });

  if (done) {
    return (
      <LinkResultCard title="Successfully Unsubscribed" description="You won't receive any more newsletters from us.">
        <p className="text-muted">
          You may still receive emails about your account, such as security and billing notices.
        </p>
        <Link to="/" className={buttonClass({ block: true })}>
          Return to home
        </Link>
      </LinkResultCard>
    );
  }
  return (
    <LinkResultCard
      title="Unsubscribe from the newsletter"
      description="Enter your email address and we will stop sending you the newsletter."
    >
      <form className="stack" onSubmit={onSubmit} noValidate>
        <TextField id="unsubscribe-email" label="Email" type="email" autoComplete="email" {...field('email')} />
        <Button type="submit" block disabled={sending}>
          {sending ? 'Unsubscribing...' : 'Unsubscribe'}
        </Button>
      </form>
      <Link to="/" className={buttonClass({ variant: 'ghost', block: true })}>
        Return to home
      </Link>
    </LinkResultCard>
  );
}
