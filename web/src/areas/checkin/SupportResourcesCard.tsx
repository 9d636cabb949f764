/** The helplines a crisis reply leads with, as links (calm, prominent, never an alarm). */
import { Link } from 'react-router-dom';
import { SAFETY_PLAN_PATH } from '../public/publicLinks';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/Card';

export interface SupportList {
  emergency: string;
  resources: Array<{ name: string; action: string; href: string }>;
}

/** One list's helplines as links, then its emergency number: the help page and the crisis reply show them alike. */
export function HelpLines({ list }: { list: SupportList }) {
  return (
    <>
      {list.resources.map((resource) => (
        <a key={resource.name} href={resource.href} className="help-line">
          <strong>{resource.name}</strong> — {resource.action}
        </a>
      ))}
      <p>{list.emergency}</p>
    </>
  );
}

export function SupportResourcesCard({ list }: { list: SupportList }) {
  return (
    <Card className="support-card" role="region" aria-label="Someone can talk with you right now">
      <CardHeader>
        <CardTitle>Someone can talk with you right now</CardTitle>
      </CardHeader>
      <CardContent className="stack">
        <HelpLines list={list} />
        <Link to="/help">More helplines</Link>
        <Link to={SAFETY_PLAN_PATH}>Your safety plan: what helps you, in your words</Link>
      </CardContent>
    </Card>
  );
}
