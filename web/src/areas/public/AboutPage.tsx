/** `/about`: mission, what makes Haven different, how it helps, the technology, the disclaimer, commitments. */
import { Link } from 'react-router-dom';
import { BRAND } from '../../brand';
import { PREMIUM_PRICE_LABEL, TRIAL_DAYS } from '../../constants';
import { usePageTitle } from '../../lib/usePageTitle';
import { buttonClass } from '../../ui/Button';
import { CrisisLines } from './CrisisLines';
import { DocPage } from './DocPage';
import { CONTACT_EMAIL, CONTACT_MAILTO } from './publicLinks';
import './public.css';

export function AboutPage() {
  usePageTitle(`About ${BRAND.name}`);
  return (
    <DocPage title={`About ${BRAND.name}`}>
      <section aria-labelledby="about-mission">
        <h2 id="about-mission">Our mission</h2>
        <p>
          Most of us rarely stop to ask how we are really doing. {BRAND.name} makes that question small and kind: a
          one-minute check-in, a few warm words back, and a quiet record that helps you notice your own patterns. We
          want looking after your feelings to be an everyday habit, as ordinary as a glass of water.
        </p>
      </section>

      <section aria-labelledby="about-different">
        <h2 id="about-different">What makes us different</h2>
        <ul>
          <li>
            <strong>Human-centred design.</strong> Plain words, calm colours, a light and a dark theme, and pages that
            work with a keyboard and a screen reader.
          </li>
          <li>
            <strong>Instant, caring feedback.</strong> After each check-in you get a message that responds to what you
            rated and the time of day, with one small step you can take, never a lecture.
          </li>
          <li>
            <strong>Privacy first.</strong> Your name, e-mail address and account details never go to the AI provider.
            We do not sell your data. You can export it or delete your account whenever you want.
          </li>
          <li>
            <strong>No pressure.</strong> {BRAND.name} shows how many days in a row you have checked in, because some
            people like to notice it. It is there to notice, never to push: a missed day is not a failure, nothing
            reminds you of what you missed, and we simply welcome you back.
          </li>
        </ul>
      </section>

      <section aria-labelledby="about-helps">
        <h2 id="about-helps">How it helps</h2>
        <p>
          You rate 15 everyday dimensions, such as stress, focus, sleep quality, gratitude and hope, on a scale from 1
          to 5, and say whether it is morning, afternoon or evening. Over days and weeks your history shows your average
          mood and how it is changing, and you can keep the messages that helped in your favourites. Many people find
          that simply naming how they feel makes a hard day a little lighter.
        </p>
      </section>

      <section aria-labelledby="about-technology">
        <h2 id="about-technology">The technology</h2>
        <p>
          Messages are written by an AI language model from an AI text provider, using only your ratings, the time of
          day and, if you add them, your notes with names, addresses, phone, card and account numbers, dates of birth
          and links removed first. When the provider is not available, {BRAND.name} chooses from its own library of
          hundreds of supportive messages, written by people, so you always get an answer.
        </p>
      </section>

      <section aria-labelledby="about-disclaimer">
        <h2 id="about-disclaimer">Please remember</h2>
        <p>
          {BRAND.name} is a wellness companion. It is not therapy, it is not a clinician, and it does not diagnose or
          treat any condition. If you are struggling, a doctor or a mental health professional can help, and if you need
          someone to talk to right now:
        </p>
        <CrisisLines />
      </section>

      <section aria-labelledby="about-commitments">
        <h2 id="about-commitments">Our commitments</h2>
        <ul>
          <li>
            Clear pricing: a {TRIAL_DAYS}-day free trial, then {PREMIUM_PRICE_LABEL} a month. Cancel before the trial
            ends and you pay nothing.
          </li>
          <li>
            No selling of your data, no advertising trackers, and nothing non-essential before you agree to cookies.
          </li>
          <li>
            E-mails only the kinds you choose; account and security messages aside, every e-mail can be turned off.
          </li>
          <li>Words that are kind on hard days: no guilt, no forced cheer, no judgement.</li>
        </ul>
      </section>

      <section aria-labelledby="about-start">
        <h2 id="about-start">Get started</h2>
        <p>Your first check-in takes about a minute.</p>
        <p>
          <Link to="/auth" className={buttonClass()}>
            Get Started
          </Link>
        </p>
      </section>

      <section aria-labelledby="about-contact">
        <h2 id="about-contact">Contact</h2>
        <p>
          We read every message. Write to <a href={CONTACT_MAILTO}>{CONTACT_EMAIL}</a>.
        </p>
      </section>
    </DocPage>
  );
}
