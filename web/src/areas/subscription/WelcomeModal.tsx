/** The welcome modal on `/?welcome=true` (after the payment setup); the parameter is removed once it opens. */
import * as Dialog from '@radix-ui/react-dialog';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { BRAND } from '../../brand';
import { TRIAL_DAYS } from '../../constants';
import { useSession } from '../../gating/useSession';
import { Button } from '../../ui/Button';

export function WelcomeModal() {
  const session = useSession();
  // A subscription without the trial (the address had one) is not told it starts with one.
  const trialing = session.status !== 'signedIn' || session.subscription?.isTrialing !== false;
  const [params, setParams] = useSearchParams();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (params.get('welcome') !== 'true') return;
    setOpen(true);
    const rest = new URLSearchParams(params);
    rest.delete('welcome');
    setParams(rest, { replace: true });
  }, [params, setParams]);

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog__overlay" />
        <Dialog.Content className="dialog__content card">
          <Dialog.Title className="card__title">Welcome to {BRAND.name} Premium!</Dialog.Title>
          <Dialog.Description>
            {trialing
              ? `Your subscription is active, starting with a ${TRIAL_DAYS}-day free trial. A welcome email is on its way to your inbox.`
              : `Your subscription is active, and everything in ${BRAND.name} Premium is open to you.`}
          </Dialog.Description>
          <Button block onClick={() => setOpen(false)}>
            Start My Wellness Journey
          </Button>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
