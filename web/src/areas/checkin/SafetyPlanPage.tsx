/**
 * /safety-plan: the person's own plan for a hard moment, written on a calmer day. Reached from the crisis reply
 * and the help page; open to everyone signed in, whatever their subscription. The device keeps a copy, so the
 * plan opens without a connection; signed out, the page says how to write one.
 */
import { useEffect, useState } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Link } from 'react-router-dom';
import { safetyPlanSectionMaxLength, safetyPlanSections, type SafetyPlanSections } from '@haven/domain/src/safety-plan';
import { SafetyPlanDocument, SaveSafetyPlanDocument } from '../../graphql/operations.generated';
import { keepSafetyPlanCopy, safetyPlanCopy, type SafetyPlanCopy } from '../../lib/safetyPlanCopy';
import { usePageTitle } from '../../lib/usePageTitle';
import { refused } from '../../lib/serverRefusal';
import { useForm } from '../../lib/useForm';
import { Button, buttonClass } from '../../ui/Button';
import { toast } from '../../ui/Toast';
import { PublicFrame } from '../public/PublicFrame';
import { SUPPORT_PATH } from '../public/publicLinks';
import '../public/public.css';

const emptyPlan = Object.fromEntries(safetyPlanSections.map(({ key }) => [key, ''])) as SafetyPlanSections;

const sectionsOf = (plan: SafetyPlanCopy | null | undefined): SafetyPlanSections =>
  Object.fromEntries(safetyPlanSections.map(({ key }) => [key, plan?.[key] ?? ''])) as SafetyPlanSections;

export function SafetyPlanPage() {
  usePageTitle('Your safety plan');
  const { data, loading, error } = useQuery(SafetyPlanDocument, { fetchPolicy: 'network-only' });
  const me = data?.me;

  useEffect(() => {
    // Each answer refreshes this device's copy; with nobody signed in, a copy left here is not theirs to read.
    if (data) keepSafetyPlanCopy(data.me?.safetyPlan ?? null);
  }, [data]);

  let body;
  if (loading && !data) body = <p className="text-muted">Opening your plan…</p>;
  else if (error || !data) body = <OfflinePlan />;
  else if (!me) {
    body = (
      <p>
        Sign in to write your plan. It stays private to you.{' '}
        <Link to="/auth" className={buttonClass({ variant: 'outline' })}>
          Sign in
        </Link>
      </p>
    );
  } else body = <SafetyPlanForm saved={me.safetyPlan ?? null} />;

  return (
    <PublicFrame>
      <article className="doc stack">
        <h1 className="doc__title">Your safety plan</h1>
        <p>
          A plan you write on a calmer day, so that in a hard moment you do not have to work out what to do next. Go
          through it one step at a time, until you feel safer.
        </p>
        <p className="text-muted">
          Only you can see it. It is never shared, never used to write your messages and never put in an e-mail. This
          device keeps a copy, so it opens without a connection.
        </p>
        {body}
        <p>
          If you need someone right now, <Link to={SUPPORT_PATH}>people are ready to listen</Link>.
        </p>
      </article>
    </PublicFrame>
  );
}

/** Without Haven's answer: the copy this device keeps, to read; nothing to change until Haven answers again. */
function OfflinePlan() {
  const [copy] = useState(safetyPlanCopy);
  const offline = !navigator.onLine;
  if (!copy) {
    return <p role="alert">We couldn’t open your plan just now. Check your connection and try again in a moment.</p>;
  }
  return (
    <>
      <p role="status">
        {offline
          ? 'You’re offline, so this is the copy kept on this device. You can change it when you’re back online.'
          : 'We couldn’t reach Haven just now, so this is the copy kept on this device. Try again in a moment to change it.'}
      </p>
      {safetyPlanSections
        .filter(({ key }) => copy[key] !== '')
        .map(({ key, title }) => (
          <section key={key} aria-label={title}>
            <h2>{title}</h2>
            <p className="safety-plan__text">{copy[key]}</p>
          </section>
        ))}
    </>
  );
}

function SafetyPlanForm({ saved }: { saved: SafetyPlanCopy | null }) {
  const [savePlan] = useMutation(SaveSafetyPlanDocument);
  const {
    values: plan,
    errors,
    pending,
    field,
    onSubmit,
  } = useForm<SafetyPlanSections>({
    initial: () => sectionsOf(saved),
    submit: async (input, form) => {
      const { data } = await savePlan({ variables: { input } });
      const kept = data?.saveSafetyPlan.safetyPlan ?? null;
      keepSafetyPlanCopy(kept);
      form.reset(kept ? sectionsOf(kept) : emptyPlan);
      toast(
        kept
          ? { title: 'Plan saved', description: 'It is here whenever you need it, on this device too.' }
          : { title: 'Plan cleared', description: 'Nothing of it is kept any more.' },
      );
    },
    failed: refused({ title: 'We couldn’t save your plan', fallback: 'Your words are still here — try again?' }),
  });

  return (
    <form className="stack" noValidate onSubmit={onSubmit} aria-label="Your safety plan">
      {safetyPlanSections.map(({ key, title, hint }, index) => (
        <div className="field" key={key}>
          <label className="label" htmlFor={`safety-plan-${key}`}>
            {index + 1}. {title}
          </label>
          <span id={`safety-plan-${key}-hint`} className="field__hint">
            {hint}
          </span>
          <textarea
            id={`safety-plan-${key}`}
            className="input textarea"
            rows={3}
            maxLength={safetyPlanSectionMaxLength}
            value={plan[key]}
            aria-invalid={errors[key] ? true : undefined}
            aria-describedby={`safety-plan-${key}-hint${errors[key] ? ` safety-plan-${key}-error` : ''}`}
            onChange={field(key).onChange}
          />
          {errors[key] && (
            <p id={`safety-plan-${key}-error`} className="field__error">
              {errors[key]}
            </p>
          )}
        </div>
      ))}
      <Button type="submit" block loading={pending}>
        Save my plan
      </Button>
    </form>
  );
}
