/**
 * Home (`/` when signed in and set up): the greeting, "Log this moment", the month calendar (Sunday first;
 * the days with a check-in marked; a day opens /progress?date=…), the two latest quotes, "Ready to check in?"
 * and the support mail link.
 */
import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { BRAND } from '../../brand';
import { CheckInDaysDocument, RecentQuotesDocument } from '../../graphql/operations.generated';
import { usePageTitle } from '../../lib/usePageTitle';
import { Button, buttonClass } from '../../ui/Button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { WelcomeModal } from '../subscription/WelcomeModal';
import { Spinner } from '../../ui/Spinner';
import { calendarDayLabel, cutText, dayKey, monthGrid, monthKey, relativeDayLabel, WEEKDAYS } from './checkinRules';

const PREVIEW_COUNT = 2;
const PREVIEW_LENGTH = 75;

function RecentQuote({ quote, now }: { quote: { id: string; text: string; createdAt: string }; now: Date }) {
  const [open, setOpen] = useState(false);
  const { text, cut } = cutText(quote.text, PREVIEW_LENGTH);
  return (
    <li className="recent-quote">
      <span className="recent-quote__day">{relativeDayLabel(new Date(quote.createdAt), now)}</span>
      <p className="recent-quote__text">{open ? quote.text : text}</p>
      {cut && (
        <button type="button" className="link-button" onClick={() => setOpen(!open)}>
          {open ? 'Show less' : 'Read more'}
        </button>
      )}
    </li>
  );
}

function Calendar() {
  const navigate = useNavigate();
  const today = new Date();
  const [shown, setShown] = useState({ year: today.getFullYear(), month: today.getMonth() });
  const [selected, setSelected] = useState<string | null>(null);
  const move = (by: number) => {
    const next = new Date(shown.year, shown.month + by, 1);
    setShown({ year: next.getFullYear(), month: next.getMonth() });
  };
  const title = new Date(shown.year, shown.month, 1).toLocaleDateString(undefined, { month: 'long', year: 'numeric' });
  // The marks are the server's: days in the user's own time zone, the same days ?date= lists.
  const marks = useQuery(CheckInDaysDocument, { variables: { month: monthKey(shown.year, shown.month) } });
  const checkedIn = new Set(marks.data?.checkInDays ?? []);
  return (
    <Card>
      <CardHeader className="calendar__header">
        <Button variant="ghost" size="sm" aria-label="Previous month" onClick={() => move(-1)}>
          ‹
        </Button>
        <CardTitle aria-live="polite">{title}</CardTitle>
        <Button variant="ghost" size="sm" aria-label="Next month" onClick={() => move(1)}>
          ›
        </Button>
      </CardHeader>
      <CardContent>
        {marks.error && (
          <p role="alert" className="text-muted">
            We couldn&apos;t mark your check-in days just now. Try again in a moment.
          </p>
        )}
        <table className="calendar" role="grid">
          <thead>
            <tr>
              {WEEKDAYS.map((day) => (
                <th key={day} scope="col">
                  {day}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {monthGrid(shown.year, shown.month).map((week, index) => (
              <tr key={index}>
                {week.map((day, column) => {
                  if (!day) return <td key={column} />;
                  const key = dayKey(day);
                  const classes = ['calendar__day'];
                  if (key === dayKey(today)) classes.push('calendar__day--today');
                  if (key === selected) classes.push('calendar__day--selected');
                  if (checkedIn.has(key)) classes.push('calendar__day--checked-in');
                  return (
                    <td key={column}>
                      <button
                        type="button"
                        className={classes.join(' ')}
                        aria-label={calendarDayLabel(day, checkedIn.has(key))}
                        aria-current={key === dayKey(today) ? 'date' : undefined}
                        onClick={() => {
                          setSelected(key);
                          navigate(`/progress?date=${key}`);
                        }}
                      >
                        {day.getDate()}
                      </button>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </CardContent>
    </Card>
  );
}

export function DashboardPage() {
  usePageTitle('Home');
  const { data, loading, error } = useQuery(RecentQuotesDocument, { variables: { limit: PREVIEW_COUNT } });
  const quotes = data?.me?.recentQuotes ?? [];
  const now = new Date();
  return (
    <div className="page stack">
      <WelcomeModal />
      <h1 className="page__title">How are you feeling today?</h1>

      <Card>
        <CardHeader>
          <CardTitle>Log this moment</CardTitle>
          <CardDescription>Rate how you feel right now and receive a supportive message.</CardDescription>
        </CardHeader>
        <CardContent>
          <Link to="/sliders" className={buttonClass({ block: true })}>
            Start Assessment
          </Link>
        </CardContent>
      </Card>

      <Calendar />

      <Card>
        <CardHeader className="card__header--row">
          <CardTitle>Recent Quotes</CardTitle>
          <Link to="/progress">View All</Link>
        </CardHeader>
        <CardContent>
          {loading && <Spinner label="Loading your quotes" />}
          {error && <p role="alert">We couldn&apos;t load your quotes just now. Try again in a moment.</p>}
          {!loading && !error && quotes.length === 0 && (
            <p className="text-muted">No quotes yet. Create your first one!</p>
          )}
          <ul className="recent-quotes">
            {quotes.map((quote) => (
              <RecentQuote key={quote.id} quote={quote} now={now} />
            ))}
          </ul>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Ready to check in?</CardTitle>
          <CardDescription>A quick check-in takes about a minute.</CardDescription>
        </CardHeader>
        <CardContent>
          <Link to="/sliders" className={buttonClass({ variant: 'secondary', block: true })}>
            Check in now
          </Link>
        </CardContent>
      </Card>

      <p className="text-muted">
        Questions or feedback? <a href={`mailto:${BRAND.supportEmail}`}>Contact support</a>
      </p>
    </div>
  );
}
