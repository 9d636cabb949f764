/** The helplines a crisis reply leads with, as links (calm, prominent, never an alarm). */
import { Link } from 'react-router-dom';
import type { SupportResources } from '@haven/platform/src/support-resources';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/Card';
import { HelpLines } from '../public/CrisisLines';

export function SupportResourcesCard({ list }: { list: Pick<SupportResources, 'resources' | 'emergency'> }) {
  return (
    <Card className="support-card" role="region" aria-label="Someone can talk with you right now">
      <CardHeader>
        <CardTitle>Someone can talk with you right now</CardTitle>
      </CardHeader>
      <CardContent className="stack">
        <HelpLines list={list} />
        <Link to="/help">More helplines</Link>
        <Link to="/safety-plan">Your safety plan</Link>
      </CardContent>
    </Card>
  );
}
