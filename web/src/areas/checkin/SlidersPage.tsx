/**
 * /sliders ("You: state assessment"): time of day, 15 sliders in five cards, notes, then the quote. Without a
 * connection the check-in is kept on this device and sent when the connection is back (WaitingCheckInsSender.tsx).
 */
import { useMutation, useQuery } from '@apollo/client/react';
import { useEffect, useRef, useState } from 'react';
import { supportResourcesFor } from '@haven/domain/src/support-resources';
import { serverAnswered, serverMessage } from '../../graphql/errors';
import {
  GenerateQuoteDocument,
  PrivacySettingsDocument,
  type AssessmentInput,
  type GenerateQuoteMutation,
} from '../../graphql/operations.generated';
import { newSubmissionKey } from './checkinRules';
import { forgetAfterCheckIn } from './freshness';
import { usePageTitle } from '../../lib/usePageTitle';
import { Button } from '../../ui/Button';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/Card';
import { toast } from '../../ui/toastStore';
import { QuoteCard } from './QuoteCard';
import { CountryQuestion } from './CountryQuestion';
import { SupportResourcesCard } from './SupportResourcesCard';
import { countryForCheckIn, personCountry } from '../../lib/country';
import { savedAtLabel, waitingShowsCrisis, waitingWords } from './waitingCheckIns';
import { keepWaiting, useWaitingCheckIns, waitingView } from './waitingStore';
import {
  DIMENSIONS,
  NotesBox,
  RATING_GROUPS,
  RatingSlider,
  TimeOfDayChoice,
  type Ratings,
  type TimeOfDay,
} from './CheckInFields';

const initialRatings = Object.fromEntries(DIMENSIONS.map((key) => [key, 3])) as Ratings;

export function SlidersPage() {
  usePageTitle('You: state assessment');
  const [ratings, setRatings] = useState(initialRatings);
  const [timeOfDay, setTimeOfDay] = useState<TimeOfDay>('morning');
  const [notes, setNotes] = useState('');
  // One key per submission: a double click or a retry of the same answers is stored once; a change or a
  // stored check-in starts a new submission.
  const [submissionKey, setSubmissionKey] = useState(newSubmissionKey);
  const startNewSubmission = () => setSubmissionKey(newSubmissionKey());
  const [result, setResult] = useState<GenerateQuoteMutation['generateQuote'] | null>(null);
  const [generate, { loading }] = useMutation(GenerateQuoteDocument, { update: forgetAfterCheckIn });
  // Notes kept off the server (Settings, Data & Privacy): the box is not shown and nothing is sent.
  const notesKept = useQuery(PrivacySettingsDocument).data?.me?.privacySettings.keepNotes ?? true;
  const { waiting, lastSent, refusals } = useWaitingCheckIns();

  // A check-in sent from the device while this page is open: its message shows here, as if just generated.
  const shownSent = useRef(lastSent);
  useEffect(() => {
    if (lastSent && lastSent !== shownSent.current) setResult(lastSent.reply);
    shownSent.current = lastSent;
  }, [lastSent]);

  /** Keeps the check-in on this device, with its key, to be sent when the connection is back. */
  const keepOnDevice = (input: AssessmentInput & { idempotencyKey: string }) => {
    const { userId } = waitingView();
    if (userId && keepWaiting({ userId, savedAt: new Date().toISOString(), input })) {
      startNewSubmission();
      toast(waitingWords.savedToast);
    } else {
      toast({ title: 'Error', description: waitingWords.notKept, variant: 'destructive' });
    }
  };

  const onGenerate = async () => {
    setResult(null);
    const input = {
      ...ratings,
      timeOfDayPreference: timeOfDay,
      notes: notesKept ? notes.trim() || null : null,
      idempotencyKey: submissionKey,
      // A crisis reply lists this country's help; without one the server uses the time zone's.
      country: countryForCheckIn(),
    };
    if (!navigator.onLine) {
      keepOnDevice(input);
      return;
    }
    try {
      const { data } = await generate({ variables: { input } });
      if (data) {
        startNewSubmission();
        setResult(data.generateQuote);
        toast({ title: 'Quote Generated', description: 'Your supportive message is ready.' });
      }
    } catch (error) {
      // No answer at all (the connection dropped on the way): kept with the same key, so it is stored once.
      if (!serverAnswered(error)) {
        keepOnDevice(input);
        return;
      }
      toast({
        title: 'Error',
        description: serverMessage(error) ?? 'Failed to generate quote.',
        variant: 'destructive',
      });
    }
  };

  // A waiting check-in with crisis signals shows its help at once, from the bundle's one list of crisis lines.
  const helpList =
    result?.supportResources ?? (waitingShowsCrisis(waiting) ? supportResourcesFor(personCountry()) : null);

  return (
    <div className="page stack">
      <h1 className="page__title">You: state assessment</h1>

      <Card>
        <CardHeader>
          <CardTitle>Time of day</CardTitle>
        </CardHeader>
        <CardContent>
          <TimeOfDayChoice
            value={timeOfDay}
            onChange={(time) => {
              setTimeOfDay(time);
              startNewSubmission();
            }}
          />
        </CardContent>
      </Card>

      {RATING_GROUPS.map((card) => (
        <Card key={card.title}>
          <CardHeader>
            <CardTitle>{card.title}</CardTitle>
          </CardHeader>
          <CardContent className="stack">
            {card.sliders.map(([key, label]) => (
              <RatingSlider
                key={key}
                dimension={key}
                label={label}
                value={ratings[key]}
                onChange={(value) => {
                  setRatings({ ...ratings, [key]: value });
                  startNewSubmission();
                }}
              />
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
          <NotesBox
            id="checkin-notes"
            value={notes}
            notesKept={notesKept}
            onChange={(next) => {
              setNotes(next);
              startNewSubmission();
            }}
          />
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
      {helpList && <SupportResourcesCard list={helpList} />}
      {waiting.length > 0 && (
        <Card role="region" aria-label={waitingWords.title}>
          <CardHeader>
            <CardTitle as="h2">{waitingWords.title}</CardTitle>
          </CardHeader>
          <CardContent className="stack">
            <p>{waitingWords.description(waiting.length)}</p>
            <ul>
              {waiting.map((checkIn) => (
                <li key={checkIn.input.idempotencyKey}>{waitingWords.item(savedAtLabel(checkIn))}</li>
              ))}
            </ul>
          </CardContent>
        </Card>
      )}
      {refusals.map((said) => (
        <p key={said} role="alert">
          {said}
        </p>
      ))}
      {result && <QuoteCard quote={result.quote} />}
      {result && <CountryQuestion />}
    </div>
  );
}
