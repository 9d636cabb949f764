/**
 * /progress: four tiles, then the journey list, each row expanding to the full quote and the notes written with
 * it, 50 at a time ("Show older entries" for the next). ?date= (a calendar day) keeps that day's quotes, says so,
 * and "Show all" clears it. An opened row can be deleted, once confirmed, and one made in the last week can be
 * edited: it changes in place, and shows the help to reach first when it now shows crisis signals.
 */
import { useApolloClient, useQuery } from '@apollo/client/react';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  ProgressSummaryDocument,
  RecentQuotesDocument,
  type QuoteCardFragment,
} from '../../graphql/operations.generated';
import { usePageTitle } from '../../lib/usePageTitle';
import { Button } from '../../ui/Button';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/Card';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import {
  cutText,
  dayFilterLabel,
  deleteEntryLabel,
  editEntryLabel,
  emotionalBars,
  entryDeletion,
  entryEditing,
  isEntryEditable,
  relativeDayLabel,
  scoreLabel,
  timeOfDayLabel,
} from './checkinRules';
import { EditEntryDialog, type EditableEntry } from './EditEntryDialog';
import { shareQuote } from './share';
import { SupportResourcesCard, type SupportList } from './SupportResourcesCard';
import { useDeleteEntry } from './useDeleteEntry';
import type { EditedEntry } from './useEditEntry';

const JOURNEY_LENGTH = 50;
const ROW_PREVIEW = 100;

interface JourneyRowProps {
  quote: QuoteCardFragment;
  now: Date;
  /** The help to reach first, when an edit made the entry show crisis signals. */
  supportResources?: SupportList;
  onDelete: () => void;
  onEdit: (entry: EditableEntry) => void;
}

/** The entry, when its writer can still edit it: within the week, and with its 15 ratings to start from. */
function editable(quote: QuoteCardFragment, now: Date): EditableEntry | null {
  const { ratings } = quote;
  return ratings && isEntryEditable(new Date(quote.createdAt), now) ? { ...quote, ratings } : null;
}

function JourneyRow({ quote, now, supportResources, onDelete, onEdit }: JourneyRowProps) {
  const [open, setOpen] = useState(false);
  const day = relativeDayLabel(new Date(quote.createdAt), now, true);
  const entry = editable(quote, now);
  return (
    <li className={`journey-row journey-row--${quote.dotColour}`}>
      <button type="button" className="journey-row__summary" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span
          className={`dot dot--${quote.dotColour}`}
          data-colour={quote.dotColour}
          aria-label={`Mood ${quote.dotColour}`}
        />
        <span className="journey-row__day">{day}</span>
        <span className="badge" data-testid="score">
          {scoreLabel(quote.score)}
        </span>
        <span className="bar" aria-hidden="true">
          <span className="bar__fill" style={{ width: `${(quote.score / 5) * 100}%` }} />
        </span>
        {!open && <span className="journey-row__text">{cutText(quote.text, ROW_PREVIEW).text}</span>}
      </button>
      {open && (
        <div className="journey-row__details stack">
          <p className="journey-row__meta" data-testid="journey-meta">
            {timeOfDayLabel(quote.timeOfDay)}
            {quote.editedAt && ` · ${entryEditing.editedMarker}`}
          </p>
          {supportResources && <SupportResourcesCard list={supportResources} />}
          <blockquote className="quote-card__text">{quote.text}</blockquote>
          <Button variant="outline" size="sm" onClick={() => void shareQuote(quote.text)}>
            Share Quote
          </Button>
          {quote.notes && (
            <>
              <h3>Your Notes</h3>
              <p className="journey-row__notes" data-testid="journey-notes">
                {quote.notes}
              </p>
            </>
          )}
          <h3>Your Emotional State</h3>
          <dl className="state-grid">
            {emotionalBars(quote.emotionalState).map((bar) => (
              <div key={bar.label} className="state-grid__item">
                <dt>{bar.label}</dt>
                <dd>
                  <span className="bar" aria-hidden="true">
                    <span className="bar__fill" style={{ width: `${(bar.value / 5) * 100}%` }} />
                  </span>
                  <span data-testid={`state-${bar.label}`}>{bar.value}/5</span>
                </dd>
              </div>
            ))}
          </dl>
          <div className="button-row">
            {entry && (
              <Button variant="outline" size="sm" aria-label={editEntryLabel(day)} onClick={() => onEdit(entry)}>
                {entryEditing.button}
              </Button>
            )}
            <Button variant="ghost" size="sm" aria-label={deleteEntryLabel(day)} onClick={onDelete}>
              {entryDeletion.button}
            </Button>
          </div>
        </div>
      )}
    </li>
  );
}

/**
 * The journey beyond its first page, a page at a time, each going on from the last quote shown (never from one the
 * person deleted: the server no longer knows it). Started again whenever the first page changes (a check-in, another
 * day chosen).
 */
function useOlderPages(latest: QuoteCardFragment[] | undefined, date: string | null, deletedIds: ReadonlySet<string>) {
  const client = useApolloClient();
  const [pages, setPages] = useState<QuoteCardFragment[][]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState(false);
  useEffect(() => {
    setPages([]);
    setError(false);
  }, [latest]);
  const lastPage = pages.at(-1) ?? latest ?? [];
  const load = async () => {
    const last = [...(latest ?? []), ...pages.flat()].filter((quote) => !deletedIds.has(quote.id)).at(-1);
    if (!last) return;
    setLoading(true);
    setError(false);
    try {
      const { data } = await client.query({
        query: RecentQuotesDocument,
        variables: { limit: JOURNEY_LENGTH, before: last.id },
        fetchPolicy: 'network-only',
      });
      const page = data?.me?.recentQuotes ?? [];
      setPages((earlier) => [...earlier, page]);
    } catch {
      setError(true);
    } finally {
      setLoading(false);
    }
  };
  return {
    quotes: pages.flat(),
    // A full page may have more behind it; a day's list is one page.
    more: date === null && lastPage.length === JOURNEY_LENGTH,
    loading,
    error,
    load,
  };
}

export function ProgressPage() {
  usePageTitle('Progress');
  const [params, setParams] = useSearchParams();
  const date = params.get('date');
  const summary = useQuery(ProgressSummaryDocument, { fetchPolicy: 'cache-and-network' });
  const journey = useQuery(RecentQuotesDocument, {
    variables: { limit: JOURNEY_LENGTH, date },
    fetchPolicy: 'cache-and-network',
  });
  const tiles = summary.data?.me?.progress;
  const latest = journey.data?.me?.recentQuotes;
  // Deleted entries leave at once, before the journey's next answer from the server.
  const [deletedIds, setDeletedIds] = useState<ReadonlySet<string>>(new Set());
  const older = useOlderPages(latest, date, deletedIds);
  // Edited entries show the edit's answer at once, in whichever page holds them (older pages are not watched).
  const [editedQuotes, setEditedQuotes] = useState<ReadonlyMap<string, QuoteCardFragment>>(new Map());
  const [crisisHelp, setCrisisHelp] = useState<ReadonlyMap<string, SupportList>>(new Map());
  const quotes = [...(latest ?? []), ...older.quotes]
    .filter((quote) => !deletedIds.has(quote.id))
    .map((quote) => editedQuotes.get(quote.id) ?? quote);
  const now = new Date();
  const [editing, setEditing] = useState<EditableEntry | null>(null);
  const onEdited = ({ quote, supportResources }: EditedEntry) => {
    setEditedQuotes((edited) => new Map(edited).set(quote.id, quote));
    setCrisisHelp((help) => {
      const next = new Map(help);
      if (supportResources) next.set(quote.id, supportResources);
      else next.delete(quote.id);
      return next;
    });
    setEditing(null);
  };
  const { deleteEntry, deleting } = useDeleteEntry();
  const [pendingDeletion, setPendingDeletion] = useState<string | null>(null);
  const journeyTitle = useRef<HTMLHeadingElement>(null);
  const confirmDeletion = async () => {
    if (!pendingDeletion) return;
    if (await deleteEntry(pendingDeletion)) setDeletedIds((ids) => new Set(ids).add(pendingDeletion));
    setPendingDeletion(null);
  };
  // Focus would fall to the page with the deleted row's button: it goes to the journey's heading instead.
  useEffect(() => {
    if (deletedIds.size > 0) journeyTitle.current?.focus();
  }, [deletedIds]);
  return (
    <div className="page stack">
      <header className="page__header">
        <h1 className="page__title">Progress</h1>
        <p className="text-muted">Track Your Journey</p>
      </header>

      {tiles && (
        <div className="tiles">
          <Card className="tile">
            <CardContent>
              <div className="ring" style={{ ['--percent' as string]: `${tiles.weeklyGoal}` }} aria-hidden="true" />
              <p className="tile__value">{tiles.weeklyGoal}%</p>
              <p className="tile__label">Weekly Goal</p>
            </CardContent>
          </Card>
          <Card className="tile">
            <CardContent>
              <p className="tile__value" data-testid="total-entries">
                {tiles.totalEntries}
              </p>
              <p className="tile__label">Total Entries</p>
            </CardContent>
          </Card>
          <Card className="tile">
            <CardContent>
              <p className="tile__value" data-testid="avg-mood">
                {tiles.averageMood.toFixed(1)}
              </p>
              <p className="tile__label">Avg Mood</p>
            </CardContent>
          </Card>
          <Card className="tile">
            <CardContent>
              <p className="tile__value" data-testid="day-streak">
                {tiles.dayStreak}
              </p>
              <p className="tile__label">Day Streak</p>
            </CardContent>
          </Card>
        </div>
      )}

      <Card>
        <CardHeader>
          <CardTitle ref={journeyTitle} tabIndex={-1}>
            Your Progress Journey
          </CardTitle>
          {date && (
            <div className="date-filter">
              <p className="text-muted" role="status">
                {dayFilterLabel(date)}
              </p>
              <Button
                variant="outline"
                size="sm"
                onClick={() => {
                  const next = new URLSearchParams(params);
                  next.delete('date');
                  setParams(next);
                }}
              >
                Show all
              </Button>
            </div>
          )}
        </CardHeader>
        <CardContent>
          {journey.loading && !journey.data && <p className="text-muted">Loading your progress...</p>}
          {journey.error && <p role="alert">We couldn&apos;t load your progress just now. Try again in a moment.</p>}
          {!journey.loading && !journey.error && quotes.length === 0 && (
            <p className="text-muted">Start your journey by creating your first emotional check-in!</p>
          )}
          <ul className="journey">
            {quotes.map((quote) => (
              <JourneyRow
                key={quote.id}
                quote={quote}
                now={now}
                supportResources={crisisHelp.get(quote.id)}
                onDelete={() => setPendingDeletion(quote.id)}
                onEdit={setEditing}
              />
            ))}
          </ul>
          {older.error && <p role="alert">We couldn&apos;t load older entries just now. Try again in a moment.</p>}
          {older.more && (
            <Button variant="outline" size="sm" disabled={older.loading} onClick={() => void older.load()}>
              {older.loading ? 'Loading...' : 'Show older entries'}
            </Button>
          )}
        </CardContent>
      </Card>

      <EditEntryDialog entry={editing} onClose={() => setEditing(null)} onSaved={onEdited} />

      <ConfirmDialog
        open={pendingDeletion !== null}
        busy={deleting}
        onOpenChange={(open) => !open && setPendingDeletion(null)}
        onConfirm={() => void confirmDeletion()}
        title={entryDeletion.title}
        description={entryDeletion.description}
        confirmLabel={entryDeletion.confirmLabel}
        cancelLabel={entryDeletion.cancelLabel}
      />
    </div>
  );
}
