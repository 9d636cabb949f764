/** The frame of the pages a link in an e-mail opens: centred card, logo, a title and what follows. */
import type { ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/Card';
import { Logo } from '../../ui/Logo';

export function LinkResultCard({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children?: ReactNode;
}) {
  return (
    <main className="full-page-center">
      <Card className="stack">
        <CardHeader>
          <Logo />
          <CardTitle as="h1">{title}</CardTitle>
          {description && <CardDescription>{description}</CardDescription>}
        </CardHeader>
        {children && <CardContent className="stack">{children}</CardContent>}
      </Card>
    </main>
  );
}
