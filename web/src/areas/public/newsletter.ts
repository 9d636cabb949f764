/**
 * The landing page's newsletter sign-up, without the DOM: the empty-field toast, the request to
 * `POST /api/newsletter/subscribe`, and how its answer reads to the visitor.
 */
import type { ToastOptions } from '../../ui/toastStore';

export const NEWSLETTER_SUBSCRIBE_URL = '/api/newsletter/subscribe';
/** Recorded with the subscriber: where a sign-up on the site comes from. */
export const NEWSLETTER_SOURCE = 'website';

export const EMAIL_REQUIRED_TOAST: ToastOptions = {
  title: 'Email Required',
  description: 'Please enter your email address.',
  variant: 'destructive',
};

export const SUBSCRIBED_TOAST: ToastOptions = {
  title: 'Successfully Subscribed!',
  description: 'Check your inbox for a link to confirm your subscription.',
};

const FALLBACK_FAILURE = 'We couldn’t sign you up just now. Please try again in a little while.';

export function subscriptionFailedToast(message?: string): ToastOptions {
  return { title: 'Subscription Failed', description: message || FALLBACK_FAILURE, variant: 'destructive' };
}

export type SubscribeResult = { ok: true } | { ok: false; message?: string };

/** A message written for people, when the server sent one (`{ message }`); never a raw status line. */
function messageOf(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string') {
      return parsed.message.trim() || undefined;
    }
  } catch {
    // Not JSON (a proxy's error page, a 404 from an older server): no message to show.
  }
  return undefined;
}

/** Sends the sign-up; any non-2xx answer (a 404 while the newsletter is not deployed, a 400, a 429) fails. */
export async function subscribeToNewsletter(email: string, fetchImpl: typeof fetch = fetch): Promise<SubscribeResult> {
  try {
    const response = await fetchImpl(NEWSLETTER_SUBSCRIBE_URL, {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      // The /api payload; the landing page is for visitors, so there is no user id to send.
      body: JSON.stringify({ email, userId: null, subscriptionSource: NEWSLETTER_SOURCE }),
    });
    if (response.ok) return { ok: true };
    // A 404 means the route is not there at all: its body says nothing useful to a visitor.
    if (response.status === 404) return { ok: false };
    return { ok: false, message: messageOf(await response.text()) };
  } catch {
    return { ok: false };
  }
}
