/**
 * `/privacy`: the Privacy Policy, covering every point a person is owed, and true to what the other
 * issues built (no personal data to the AI provider, notes scrubbed, Stripe, OIDC sign-in, consent,
 * export, deletion across every service, the privacy switches, the weekly newsletter).
 */
import { Link } from 'react-router-dom';
import { BRAND } from '../../brand';
import { usePageTitle } from '../../lib/usePageTitle';
import { CrisisLines } from './CrisisLines';
import { DocPage } from './DocPage';
import { LEGAL_LAST_UPDATED, MINIMUM_AGE } from './legal';
import { CONTACT_EMAIL, CONTACT_MAILTO } from './publicLinks';
import './public.css';

const name = BRAND.name;

export function PrivacyPage() {
  usePageTitle('Privacy Policy');
  return (
    <DocPage title="Privacy Policy" meta={`Last updated ${LEGAL_LAST_UPDATED}`}>
      <section aria-labelledby="privacy-intro">
        <h2 id="privacy-intro">In short</h2>
        <p>
          Your feelings are personal. {name} collects only what it needs to work for you, never sells it, never sends
          your name or e-mail address to the AI provider, and lets you export or delete everything whenever you want.
        </p>
      </section>

      <section aria-labelledby="privacy-collect">
        <h2 id="privacy-collect">What we collect</h2>
        <ul>
          <li>
            <strong>Account details:</strong> your e-mail address, your first and last name if you give them, a profile
            picture if your sign-in provider shares one, your time zone (so “today” is your today), and your preferences
            such as theme and e-mail choices.
          </li>
          <li>
            <strong>Your check-ins:</strong> your ratings on 15 emotional dimensions, the time of day, and notes if you
            write any.
          </li>
          <li>
            <strong>What you keep:</strong> the messages you receive and the ones you save to your favourites.
          </li>
          <li>
            <strong>Your safety plan, if you write one:</strong> it is only ever shown to you, never to our team, the AI
            provider or any e-mail. A copy stays on your device so it opens without a connection, until you sign out
            there.
          </li>
          <li>
            <strong>Usage data:</strong> when you check in, so we can show your history and streaks, and the sign-in
            sessions of your account (device and time, never your password).
          </li>
          <li>
            <strong>Subscription records:</strong> your plan, trial and billing dates and payment status. Your card
            details are not among them (see below).
          </li>
        </ul>
      </section>

      <section aria-labelledby="privacy-use">
        <h2 id="privacy-use">How we use it</h2>
        <p>
          To run the service for you: to write your messages, show your history, trends and insights, keep you signed in
          safely, manage your subscription and send the e-mails you have chosen. We do not use your data for
          advertising, and we do not sell or rent it to anyone.
        </p>
      </section>

      <section aria-labelledby="privacy-ai">
        <h2 id="privacy-ai">The AI provider</h2>
        <p>
          Your messages are written by an AI language model from an AI text provider. It receives only your ratings, the
          time of day and your notes, and before your notes leave {name} we remove names, e-mail and postal addresses,
          phone, card and account numbers, dates of birth and links from them. No personally identifiable information is
          sent: not your name, not your e-mail address, not your account id. When the provider is not available,
          messages come from {name}’s own library and nothing is sent at all.
        </p>
      </section>

      <section aria-labelledby="privacy-payment">
        <h2 id="privacy-payment">Payments</h2>
        <p>
          Card payments are handled by our payment provider, Stripe. Your card details go straight to Stripe; {name}{' '}
          never sees or stores your full card number. We keep only what we need to manage your subscription, such as its
          status and dates.
        </p>
      </section>

      <section aria-labelledby="privacy-signin">
        <h2 id="privacy-signin">Signing in with another account</h2>
        <p>
          You can sign in with Google or with our single sign-on partner instead of a password. That provider tells us
          your e-mail address, whether it has verified it, and your name and picture if you allow it. We link it to an
          existing {name} account at once only when both sides have verified the e-mail address; otherwise we ask for
          your {name} password first, so nobody can take over your account that way. We e-mail you whenever a new way to
          sign in is linked.
        </p>
      </section>

      <section aria-labelledby="privacy-cookies">
        <h2 id="privacy-cookies">Cookies</h2>
        <p>
          We use only essential cookies: one keeps you signed in, a short-lived one protects a sign-in with Google or
          single sign-on, and one remembers the cookie choice of a visitor who is not signed in (once you sign in, the
          choice is kept with your account). {name} sets no analytics, marketing or preference cookies; the cookie
          banner asks anyway, so none would ever be set without your say, and you can change your choice at any time in
          Settings. Your light or dark theme is kept in your own browser because you chose it.
        </p>
      </section>

      <section aria-labelledby="privacy-email">
        <h2 id="privacy-email">E-mails and the newsletter</h2>
        <p>
          Our newsletter is weekly. You join it only by asking and confirming through a link we send you, and every
          issue has a one-click unsubscribe link. Product updates, marketing e-mails, a weekly summary of your check-ins
          and a daily check-in reminder are each a separate choice on your e-mail preferences page, and the summary and
          the reminder each carry a link that stops them in one click. Messages about your account’s security and your
          billing are always sent, because you need them.
        </p>
        <p>
          When you unsubscribe from the newsletter, your address leaves the list at once and is deleted 30 days later;
          an address that was never confirmed is deleted a week after its confirmation link expired. Our record of each
          e-mail we send (to which address, what kind, whether it arrived) is deleted after 90 days.
        </p>
      </section>

      <section aria-labelledby="privacy-controls">
        <h2 id="privacy-controls">Your privacy controls</h2>
        <ul>
          <li>
            <strong>Adjust what is stored:</strong> turn off “Keep check-in notes” in Settings and, from then on, the
            notes box is hidden and nothing you would have written there is sent or saved. Notes you saved before stay
            until you delete your account.
          </li>
          <li>
            <strong>Opt out of analysis:</strong> turn off “Insights from your history” in Settings and {name} no longer
            works out or shows insights from your check-ins. Insights are worked out when you look at them and never
            stored, so there is nothing left behind.
          </li>
          <li>
            <strong>Correct an entry:</strong> for 7 days after a check-in you can change its ratings, time of day and
            notes on your Progress page; your progress and analytics follow.
          </li>
          <li>
            <strong>Delete an entry:</strong> open a check-in on your Progress page and delete it. The check-in, its
            notes and its message are gone for good, and your progress, streaks and analytics no longer count it.
          </li>
          <li>
            <strong>Export:</strong> download everything {name} stores about you as one file, at any time, whatever your
            subscription.
          </li>
          <li>
            <strong>Delete your account:</strong> your account closes at once (you are signed out everywhere and any
            subscription is cancelled), then your data is erased from every part of {name}, including messages that were
            still waiting to be sent.
          </li>
        </ul>
      </section>

      <section aria-labelledby="privacy-rights">
        <h2 id="privacy-rights">Your rights</h2>
        <p>
          Wherever you live, you may ask to access your data, correct it, delete it, receive a copy to take elsewhere,
          withdraw any consent you gave, and object to how we use it. Most of this you can do yourself in Settings and
          on your e-mail preferences page; for anything else write to <a href={CONTACT_MAILTO}>{CONTACT_EMAIL}</a> and
          we will answer within one month. You can also complain to your data protection authority (in the UK, the
          Information Commissioner’s Office).
        </p>
      </section>

      <section aria-labelledby="privacy-keep">
        <h2 id="privacy-keep">How long we keep it, and how we protect it</h2>
        <p>
          We keep your data while your account is open. What you tell us — your check-in ratings and notes, the messages
          written for you and your safety plan — is stored encrypted under a key that is yours alone. Passwords are
          stored only as secure hashes, the links we e-mail you are kept only as hashes and travel between our services
          encrypted, sessions can be ended from Settings, and traffic is encrypted. If you cancel your subscription,
          your data stays until you delete your account, so you can come back to it. When you delete it, every part of{' '}
          {name}
          erases what it holds about you, and your key is destroyed: a copy of what you wrote left anywhere can never be
          read again. Our backups are the one place your data stays a little longer: what you wrote can no longer be
          read in them 7 days after you delete your account, when the last backup of your key is deleted, and the rest
          of your data is gone from them within 35 days. Our internal message logs never hold what you write, hold your
          e-mail address and name only under that same key, and their copies are deleted within 8 days. The only thing
          kept is what the law requires for invoices (subscription dates and the payment provider’s reference, without
          your name, e-mail address or account id) for seven years after your account is deleted; then that goes too.
        </p>
        <p>
          One more thing stays, on purpose, for three years. The free trial is once per e-mail address, so when you
          start a subscription we note a scrambled fingerprint of your e-mail address. We keep it for three years after
          your trial, even if you delete your account; if your account is still open by then, we keep it for three years
          after you delete it. It is made with a secret key, cannot be turned back into your address, and is used for
          one thing only: if someone signs up again with the same address in that time, the Subscription page says there
          is no free trial this time and exactly what will be charged. It holds nothing else about you, and after those
          three years it is deleted.
        </p>
      </section>

      <section aria-labelledby="privacy-children">
        <h2 id="privacy-children">Children</h2>
        <p>
          {name} is not for children under {MINIMUM_AGE}. We do not knowingly collect their data, and we delete an
          account we learn belongs to a child under {MINIMUM_AGE}.
        </p>
      </section>

      <section aria-labelledby="privacy-disclaimer">
        <h2 id="privacy-disclaimer">A note about your wellbeing</h2>
        <p>
          {name} is not therapy and does not replace a doctor or mental health professional. If you need to talk to
          someone now:
        </p>
        <CrisisLines />
      </section>

      <section aria-labelledby="privacy-changes">
        <h2 id="privacy-changes">Changes and contact</h2>
        <p>
          If we change this policy in a way that matters, we will tell you before it takes effect. Questions? Write to{' '}
          <a href={CONTACT_MAILTO}>{CONTACT_EMAIL}</a>. See also our <Link to="/terms">Terms of Service</Link>.
        </p>
      </section>
    </DocPage>
  );
}
