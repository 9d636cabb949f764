/**
 * Asked once, under the first check-in's reply: which country the person is in, so the crisis lines Haven shows
 * first are theirs. Skippable; the browser's guess stays until they pick, here, in Settings or on the help page.
 */
import { useState } from 'react';
import { chooseCountry, countryQuestionDue, personCountry, skipCountryQuestion } from '../../lib/country';
import { BRAND } from '../../brand';
import { Button } from '../../ui/Button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { CountryPicker } from '../../ui/CountryPicker';

export function CountryQuestion() {
  const [due] = useState(countryQuestionDue);
  const [country, setCountry] = useState(personCountry);
  const [answered, setAnswered] = useState(false);
  if (!due) return null;
  if (answered) {
    return (
      <p className="text-muted" role="status">
        Thank you. You can change it any time in Settings.
      </p>
    );
  }
  const keep = () => {
    chooseCountry(country);
    setAnswered(true);
  };
  return (
    <Card aria-labelledby="country-question-title" role="region">
      <CardHeader>
        <CardTitle as="h2" id="country-question-title">
          Help close to you
        </CardTitle>
        <CardDescription>
          If you ever need it, {BRAND.name} shows the crisis lines of your country first. Is this where you are? Kept on
          this device only.
        </CardDescription>
      </CardHeader>
      <CardContent className="stack">
        <CountryPicker id="checkin-country" value={country} onPick={setCountry} />
        <div className="button-row">
          <Button onClick={keep}>Keep this country</Button>
          <Button
            variant="ghost"
            onClick={() => {
              skipCountryQuestion();
              setAnswered(true);
            }}
          >
            Not now
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
