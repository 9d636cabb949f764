/**
 * The public landing page (`/` when signed out): the loader, the sticky navigation and every section in
 * its order — hero, what it is, How It Works, Why Choose with Perfect For, the important
 * notice, Ready to Start?, the newsletter and the footer.
 */
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { BRAND } from '../../brand';
import { PREMIUM_PRICE_LABEL, TRIAL_DAYS } from '../../constants';
import { usePageTitle } from '../../lib/usePageTitle';
import { buttonClass } from '../../ui/Button';
import { CrisisLines } from './CrisisLines';
import { LandingLoader } from './LandingLoader';
import { HOW_IT_WORKS, PERFECT_FOR, WHAT_IT_IS, WHY_CHOOSE } from './landingContent';
import { NewsletterForm } from './NewsletterForm';
import { PublicFooter } from './PublicFooter';
import { PublicNav } from './PublicNav';
import { Reveal } from './Reveal';
import { SUPPORT_PATH } from './publicLinks';
import { SkipLink } from '../../ui/SkipLink';
import './public.css';

/** Arriving from another page at `/#why-choose`: the router does not scroll to anchors by itself. */
function useScrollToHash() {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [hash]);
}

export function LandingPage() {
  usePageTitle();
  useScrollToHash();
  return (
    <div className="public">
      <LandingLoader />
      <SkipLink />
      <PublicNav />

      <main id="main" className="public__main">
        <section className="hero" aria-labelledby="hero-title">
          <h1 id="hero-title" className="hero__title">
            Track. Reflect. Thrive.
          </h1>
          <p className="hero__lead">
            {BRAND.name} is your daily emotional wellness companion. Rate how you feel in a quick check-in and receive a
            personalised, supportive message written for this moment.
          </p>
          <div className="hero__actions">
            <Link to="/auth" className={buttonClass({ size: 'lg' })}>
              Start Free Trial
            </Link>
            <a href="#how-it-works" className={buttonClass({ size: 'lg', variant: 'outline' })}>
              See How It Works
            </a>
          </div>
          <p className="hero__note text-muted">
            {TRIAL_DAYS}-day free trial, then {PREMIUM_PRICE_LABEL} per month. Cancel anytime before the trial ends and
            you pay nothing.
          </p>
        </section>

        <Reveal id="features" className="public-section" aria-labelledby="features-title">
          <h2 id="features-title" className="public-section__title">
            What is {BRAND.name}?
          </h2>
          <p className="public-section__lead">
            A gentle space to check in with yourself every day, notice how you are really doing, and get a few kind
            words when you need them.
          </p>
          <ul className="point-grid">
            {WHAT_IT_IS.map((point) => (
              <li key={point.title} className="point">
                <h3 className="point__title">{point.title}</h3>
                <p>{point.text}</p>
              </li>
            ))}
          </ul>
        </Reveal>

        <Reveal id="how-it-works" className="public-section" aria-labelledby="how-title">
          <h2 id="how-title" className="public-section__title">
            How It Works
          </h2>
          <ol className="steps">
            {HOW_IT_WORKS.map((step, index) => (
              <li key={step.title} className="step">
                <span className="step__number" aria-hidden="true">
                  {index + 1}
                </span>
                <div>
                  <h3 className="point__title">{step.title}</h3>
                  <p>{step.text}</p>
                </div>
              </li>
            ))}
          </ol>
        </Reveal>

        <Reveal id="why-choose" className="public-section" aria-labelledby="why-title">
          <h2 id="why-title" className="public-section__title">
            Why Choose {BRAND.name}?
          </h2>
          <ul className="point-grid">
            {WHY_CHOOSE.map((point) => (
              <li key={point.title} className="point">
                <h3 className="point__title">{point.title}</h3>
                <p>{point.text}</p>
              </li>
            ))}
          </ul>
          <div className="perfect-for">
            <h3 className="perfect-for__title">Perfect For</h3>
            <ul className="perfect-for__list">
              {PERFECT_FOR.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </div>
        </Reveal>

        <Reveal className="public-section notice" aria-labelledby="notice-title">
          <h2 id="notice-title" className="notice__title">
            Important Notice
          </h2>
          <p>
            {BRAND.name} supports self-awareness and wellness habits. It is not therapy, and it is not a substitute for
            professional mental health care, diagnosis or treatment.
          </p>
          <p>
            If you are struggling right now, you do not have to face it alone: people can talk with you now, and
            reaching out is a strong first step.
          </p>
          <CrisisLines />
          <p>
            <Link to={SUPPORT_PATH}>More places to find help</Link>
          </p>
        </Reveal>

        <Reveal className="public-section cta" aria-labelledby="cta-title">
          <h2 id="cta-title" className="public-section__title">
            Ready to Start?
          </h2>
          <p className="public-section__lead">
            Your first check-in takes about a minute. Try everything free for {TRIAL_DAYS} days.
          </p>
          <Link to="/auth" className={buttonClass({ size: 'lg' })}>
            Start Your Free Trial
          </Link>
        </Reveal>

        <Reveal id="newsletter" className="public-section newsletter" aria-labelledby="newsletter-title">
          <h2 id="newsletter-title" className="public-section__title">
            Stay in Touch
          </h2>
          <p className="public-section__lead">
            One calm e-mail a week with ideas for looking after yourself and news about {BRAND.name}. No spam.
          </p>
          <NewsletterForm />
        </Reveal>
      </main>

      <PublicFooter />
    </div>
  );
}
