/**
 * /safety-plan: the person's own plan for a hard moment, in the parts clinicians use (the Stanley–Brown safety
 * plan). Private: only they see it; it is never sent to the AI or in an e-mail. Never behind the paywall.
 */
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@apollo/client/react';
import { Link } from 'react-router-dom';
import {
  safetyPlanSectionMaxLength,
  safetyPlanSections,
  type SafetyPlanContent,
} from '@haven/platform/src/safety-plan';
import { fieldErrors, serverMessage } from '../../graphql/errors';
import { MySafetyPlanDocument, SaveSafetyPlanDocument } from '../../graphql/operations.generated';
import { usePageTitle } from '../../lib/usePageTitle';
import { Button } from '../../ui/Button';
import { Card, CardContent } from '../../ui/Card';
import { Spinner } from '../../ui/Spinner';
import { toast } from '../../ui/Toast';

type Draft = Partial<SafetyPlanContent>;

export function SafetyPlanPage() {
  usePageTitle('Your Safety Plan');
  const { data, loading, error } = useQuery(MySafetyPlanDocument);
  const [save, saving] = useMutation(SaveSafetyPlanDocument, { refetchQueries: [MySafetyPlanDocument] });
  // What the person typed since the plan loaded; untouched parts show what is saved.
  const [draft, setDraft] = useState<Draft>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const saved = data?.me?.safetyPlan;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    try {
      await save({ variables: { input: draft } });
      setDraft({});
      setErrors({});
      toast({ title: 'Safety Plan Saved', description: 'Only you can see it.' });
    } catch (caught) {
      setErrors(fieldErrors(caught));
      toast({
        title: 'Save Failed',
        description: serverMessage(caught) ?? 'Please try again.',
        variant: 'destructive',
      });
    }
  };

  return (
    <div className="page stack">
      <header className="page__header">
        <h1 className="page__title">Your Safety Plan</h1>
        <p className="text-muted">
          A plan you write on a calmer day, for a hard moment: what to notice, what helps, and who to reach. Only you
          can see it; Haven never sends it to anyone.
        </p>
        <p>
          <Link to="/help">Need to talk to someone now?</Link>
        </p>
      </header>
      {loading && <Spinner label="Loading your plan" />}
      {error && !saved && <p role="alert">We couldn&apos;t load your plan just now. Please try again in a moment.</p>}
      {saved && (
        <form className="stack" noValidate onSubmit={onSubmit} aria-label="Your safety plan">
          {safetyPlanSections.map(({ key, title, prompt }, index) => {
            const error = errors[`input.${key}`] ?? errors[key];
            return (
              <Card key={key}>
                <CardContent className="stack">
                  <label className="label" htmlFor={`plan-${key}`}>
                    {index + 1}. {title}
                  </label>
                  <span id={`plan-${key}-hint`} className="field__hint">
                    {prompt}
                  </span>
                  <textarea
                    id={`plan-${key}`}
                    className="input textarea"
                    rows={3}
                    maxLength={safetyPlanSectionMaxLength}
                    aria-describedby={[`plan-${key}-hint`, error && `plan-${key}-error`].filter(Boolean).join(' ')}
                    aria-invalid={error ? true : undefined}
                    value={draft[key] ?? saved[key]}
                    onChange={(event) => setDraft((current) => ({ ...current, [key]: event.target.value }))}
                  />
                  {error && (
                    <p id={`plan-${key}-error`} className="field__error">
                      {error}
                    </p>
                  )}
                </CardContent>
              </Card>
            );
          })}
          <Button type="submit" block loading={saving.loading} disabled={Object.keys(draft).length === 0}>
            Save My Plan
          </Button>
          {saved.updatedAt && <p className="text-muted">Last saved {new Date(saved.updatedAt).toLocaleString()}.</p>}
        </form>
      )}
    </div>
  );
}
