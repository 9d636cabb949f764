import { topicOf } from '@haven/proto';
import type { ConsumerSpec } from '@haven/platform';
import { renderVerificationEmail } from '../domain/verification-email';
import type { Mailer } from './mailer';

export interface NotificationHandlersDeps {
  mailer: Mailer;
  appUrl: string;
  productName: string;
}

/** What the notification service reacts to. */
export function notificationConsumers(deps: NotificationHandlersDeps): ConsumerSpec[] {
  const sendVerification = async (
    eventId: string,
    user: { userId: string; email: string; firstName: string; token: string },
  ) => {
    const email = renderVerificationEmail({
      productName: deps.productName,
      appUrl: deps.appUrl,
      token: user.token,
      firstName: user.firstName,
    });
    await deps.mailer.deliverOnce({ eventId, kind: 'verify-email', userId: user.userId, to: user.email, email });
  };

  return [
    {
      groupId: 'notification',
      topics: [topicOf('user')],
      handlers: {
        'user.registered': async (event, { eventId }) => {
          // Sign-ups through Google or the hosted platform arrive verified and carry no token.
          if (!event.verification?.token) return;
          await sendVerification(eventId, { ...event, token: event.verification.token });
        },
        'user.email_verification_requested': async (event, { eventId }) => {
          if (!event.verification?.token) return;
          await sendVerification(eventId, { ...event, token: event.verification.token });
        },
      },
    },
  ];
}
