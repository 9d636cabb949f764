/**
 * The year at a glance on /analytics: a square for each day, coloured by that day's mood, each day with a
 * check-in a link to its entries (/progress?date=), named with its mood and count so it reads without colour.
 */
import { useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { YearInMoodsDocument } from '../../graphql/operations.generated';
import { Button } from '../../ui/Button';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/Card';
import { dayKey, monthGrid, yearDayLabel } from './checkinRules';

const months = Array.from({ length: 12 }, (_, month) => month);

export function YearView() {
  const [year, setYear] = useState(() => new Date().getFullYear());
  const moods = useQuery(YearInMoodsDocument, { variables: { year: String(year) } });
  const byDay = new Map((moods.data?.yearInMoods ?? []).map((day) => [day.date, day]));
  return (
    <Card>
      <CardHeader className="calendar__header">
        <Button variant="ghost" size="sm" aria-label="Previous year" onClick={() => setYear(year - 1)}>
          ‹
        </Button>
        <CardTitle aria-live="polite">Your Year: {year}</CardTitle>
        <Button variant="ghost" size="sm" aria-label="Next year" onClick={() => setYear(year + 1)}>
          ›
        </Button>
      </CardHeader>
      <CardContent className="stack">
        {moods.error && (
          <p role="alert" className="text-muted">
            We couldn&apos;t show your year just now. Try again in a moment.
          </p>
        )}
        {moods.data && (
          <p className="text-muted" data-testid="year-summary">
            {byDay.size === 0
              ? `No check-ins in ${year} yet.`
              : `${byDay.size} ${byDay.size === 1 ? 'day' : 'days'} with a check-in in ${year}. Choose one to see its entries.`}
          </p>
        )}
        <div className="year">
          {months.map((month) => (
            <section key={month} className="year__month">
              <h3 className="year__month-name">
                {new Date(year, month, 1).toLocaleDateString(undefined, { month: 'long' })}
              </h3>
              <div className="year__days">
                {monthGrid(year, month)
                  .flat()
                  .map((day, index) => {
                    const mood = day ? byDay.get(dayKey(day)) : undefined;
                    if (!day || !mood) {
                      const blank = day ? 'year__day' : 'year__day year__day--outside';
                      return <span key={index} className={blank} aria-hidden="true" />;
                    }
                    const label = yearDayLabel(day, mood.mood, mood.entries);
                    return (
                      <Link
                        key={index}
                        to={`/progress?date=${mood.date}`}
                        className={`year__day mood--${mood.colour}`}
                        aria-label={label}
                        title={label}
                      />
                    );
                  })}
              </div>
            </section>
          ))}
        </div>
        <p className="text-muted year__legend">
          Green: a mood of 4 or more. Yellow: 3 to 4. Red: under 3. Grey: no check-in.
        </p>
      </CardContent>
    </Card>
  );
}
