/** /sliders ("You: state assessment"): time of day, 15 sliders in five cards, notes, then the quote. */
import { useMutation, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { serverMessage } from '../../graphql/errors';
import {
  GenerateQuoteDocument,
  PrivacySettingsDocument,
  type GenerateQuoteMutation,
} from '../../graphql/operations.generated';
import { NOTES_OFF_MESSAGE } from '../privacy/privacyRules';
import { newSubmissionKey } from './checkinRules';
import { forgetAfterCheckIn } from './freshness';
import { usePageTitle } from '../../lib/usePageTitle';
import { Button } from '../../ui/Button';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/Card';
import { toast } from '../../ui/toastStore';
import { QuoteCard } from './QuoteCard';
import { CountryQuestion } from './CountryQuestion';
import { SupportResourcesCard } from './SupportResourcesCard';
import { countryForCheckIn } from '../../lib/country';

type Dimension =
  | 'stressLevel'
  | 'confidenceLevel'
  | 'focusClarity'
  | 'motivationLevel'
  | 'anxietyLevel'
  | 'connectionWithOthers'
  | 'supportSystemStrength'
  | 'senseOfPurpose'
  | 'progressTowardGoals'
  | 'hopeForFuture'
  | 'sleepQuality'
  | 'physicalComfort'
  | 'currentChallengeLevel'
  | 'gratitudeLevels'
  | 'urgencyOfNeed';

export const CARDS: Array<{ title: string; sliders: Array<[Dimension, string]> }> = [
  {
    title: 'Emotional & Mental State',
    sliders: [
      ['stressLevel', 'Stress'],
      ['confidenceLevel', 'Confidence'],
      ['focusClarity', 'Focus and clarity'],
      ['motivationLevel', 'Motivation'],
      ['anxietyLevel', 'Anxiety'],
    ],
  },
  {
    title: 'Social & Relationships',
    sliders: [
      ['connectionWithOthers', 'Connection with others'],
      ['supportSystemStrength', 'Support system strength'],
    ],
  },
  {
    title: 'Purpose & Direction',
    sliders: [
      ['senseOfPurpose', 'Sense of purpose'],
      ['progressTowardGoals', 'Progress toward goals'],
      ['hopeForFuture', 'Hope for future'],
    ],
  },
  {
    title: 'Physical Wellbeing',
    sliders: [
      ['sleepQuality', 'Sleep quality'],
      ['physicalComfort', 'Physical comfort'],
    ],
  },
  {
    title: 'Daily Context',
    sliders: [
      ['currentChallengeLevel', 'Current challenge level'],
      ['gratitudeLevels', 'Gratitude levels'],
      ['urgencyOfNeed', 'Urgency of need'],
    ],
  },
];

const TIMES = ['morning', 'afternoon', 'evening'] as const;
const NOTES_MAX = 1000;
const initialRatings = Object.fromEntries(CARDS.flatMap((card) => card.sliders.map(([key]) => [key, 3]))) as Record<
  Dimension,
  number
>;

export function SlidersPage() {
  usePageTitle('You: state assessment');
  const [ratings, setRatings] = useState(initialRatings);
  const [timeOfDay, setTimeOfDay] = useState<(typeof TIMES)[number]>('morning');
  const [notes, setNotes] = useState('');
  // One key per submission: a double click or a retry of the same answers is stored once; a change or a
  // stored check-in starts a new submission.
  const [submissionKey, setSubmissionKey] = useState(newSubmissionKey);
  const startNewSubmission = () => setSubmissionKey(newSubmissionKey());
  const [result, setResult] = useState<GenerateQuoteMutation['generateQuote'] | null>(null);
  const [generate, { loading }] = useMutation(GenerateQuoteDocument, { update: forgetAfterCheckIn });
  // Notes kept off the server (Settings, Data & Privacy): the box is not shown and nothing is sent.
  const notesKept = useQuery(PrivacySettingsDocument).data?.me?.privacySettings.keepNotes ?? true;

  const onGenerate = async () => {
    setResult(null);
    try {
      const { data } = await generate({
        variables: {
          input: {
            ...ratings,
            timeOfDayPreference: timeOfDay,
            notes: notesKept ? notes.trim() || null : null,
            idempotencyKey: submissionKey,
            // A crisis reply lists this country's help; without one the server uses the time zone's.
            country: countryForCheckIn(),
          },
        },
      });
      if (data) {
        startNewSubmission();
        setResult(data.generateQuote);
        toast({ title: 'Quote Generated', description: 'Your supportive message is ready.' });
      }
    } catch (error) {
      toast({
        title: 'Error',
        description: serverMessage(error) ?? 'Failed to generate quote.',
        variant: 'destructive',
      });
    }
  };

  return (
    <div className="page stack">
      <h1 className="page__title">You: state assessment</h1>

      <Card>
        <CardHeader>
          <CardTitle>Time of day</CardTitle>
        </CardHeader>
        <CardContent>
          <div className="segmented" role="radiogroup" aria-label="Time of day">
            {TIMES.map((time) => (
              <label key={time} className={`segmented__option${time === timeOfDay ? ' segmented__option--on' : ''}`}>
                <input
                  type="radio"
                  name="timeOfDay"
                  value={time}
                  checked={time === timeOfDay}
                  onChange={() => {
                    setTimeOfDay(time);
                    startNewSubmission();
                  }}
                />
                {time.charAt(0).toUpperCase() + time.slice(1)}
              </label>
            ))}
          </div>
        </CardContent>
      </Card>

      {CARDS.map((card) => (
        <Card key={card.title}>
          <CardHeader>
            <CardTitle>{card.title}</CardTitle>
          </CardHeader>
          <CardContent className="stack">
            {card.sliders.map(([key, label]) => (
              <div key={key} className="slider">
                <div className="slider__top">
                  <label htmlFor={`slider-${key}`}>{label}</label>
                  <span className="slider__value" data-testid={`value-${key}`}>
                    {ratings[key]}/5
                  </span>
                </div>
                <input
                  id={`slider-${key}`}
                  name={key}
                  type="range"
                  min={1}
                  max={5}
                  step={1}
                  value={ratings[key]}
                  onChange={(event) => {
                    setRatings({ ...ratings, [key]: Number(event.target.value) });
                    startNewSubmission();
                  }}
                />
                <div className="slider__ends" aria-hidden="true">
                  <span>Low</span>
                  <span>High</span>
                </div>
              </div>
            ))}
          </CardContent>
        </Card>
      ))}

      <Card>
        <CardHeader>
          <CardTitle as="h2">
            <label htmlFor="checkin-notes">Notes (optional)</label>
          </CardTitle>
        </CardHeader>
        <CardContent>
          {notesKept ? (
            <textarea
              id="checkin-notes"
              className="input textarea"
              rows={3}
              maxLength={NOTES_MAX}
              value={notes}
              placeholder="Anything on your mind? This stays private."
              onChange={(event) => {
                setNotes(event.target.value);
                startNewSubmission();
              }}
            />
          ) : (
            <p id="checkin-notes" className="text-muted" role="note">
              {NOTES_OFF_MESSAGE}
            </p>
          )}
        </CardContent>
      </Card>

      <Button block size="lg" disabled={loading} onClick={() => void onGenerate()}>
        {loading ? 'Generating...' : 'Generate My Quote'}
      </Button>

      {loading && (
        <p className="quote-placeholder" role="status">
          Crafting your quote...
        </p>
      )}
      {result?.supportResources && <SupportResourcesCard list={result.supportResources} />}
      {result && <QuoteCard quote={result.quote} />}
      {result && <CountryQuestion />}
    </div>
  );
}
