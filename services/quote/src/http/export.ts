/**
 * GET /api/user/export (the gateway forwards it here as /http/export): the user's check-ins and quotes as
 * one CSV download, one row per check-in with its quote. A file, so a plain HTTP route, not GraphQL.
 */
import {
  bearerToken,
  csvRow,
  deniedMessages,
  serviceHttpRoutes,
  verifySessionToken,
  type Entitlement,
  type PersonKeyring,
  type ServiceHttpRoutes,
  type SessionClaims,
} from '@haven/platform';
import type { Request, Response } from 'express';
import type { Model } from 'mongoose';
import { dimensions } from '../domain/assessment';
import { exportFileName } from '../domain/csv';
import { localDate } from '../domain/progress';
import { ratingsOfCheckIn, type CheckInRecord } from '../model/check-in';
import type { QuoteRecord } from '../model/quote';
import { timeZoneOf } from '../events/time-zones';
import type { TimeZoneRecord } from '../model/time-zone';

export function exportRoutes(deps: {
  quotes: Model<QuoteRecord>;
  checkIns: Model<CheckInRecord>;
  timeZones: Model<TimeZoneRecord>;
  personKeyring: PersonKeyring;
  publicKey: string;
  entitlementOf: (token: string, session: SessionClaims) => Promise<Entitlement>;
}): ServiceHttpRoutes {
  const download = async (req: Request, res: Response) => {
    const token = bearerToken(req.header('authorization'));
    const session = token ? verifySessionToken(token, deps.publicKey) : null;
    if (!token || !session) {
      res.status(401).json({ message: 'Not signed in' });
      return;
    }
    const entitlement = await deps.entitlementOf(token, session);
    if (!entitlement.granted) {
      res
        .status(403)
        .json({ message: deniedMessages[entitlement.reason], requiresAuth: true, reason: entitlement.reason });
      return;
    }
    const userId = session.userId;
    const quotesByCheckIn = new Map<string, QuoteRecord>();
    for await (const quote of deps.quotes.find({ userId }, { outbox: 0 }).lean<QuoteRecord[]>().cursor()) {
      quotesByCheckIn.set(quote.checkInId, quote);
    }
    const day = localDate(new Date(), await timeZoneOf(deps.timeZones, userId));
    res.setHeader('content-type', 'text/csv; charset=utf-8');
    res.setHeader('content-disposition', `attachment; filename="${exportFileName(day)}"`);
    res.setHeader('cache-control', 'no-store');
    res.write(
      csvRow(['checkInId', 'createdAt', 'timeOfDay', ...dimensions, 'notes', 'quoteId', 'quoteText', 'isFavorite']),
    );
    for await (const checkIn of deps.checkIns
      .find({ userId })
      .sort({ createdAt: 1 })
      .lean<CheckInRecord[]>()
      .cursor()) {
      const quote = quotesByCheckIn.get(checkIn._id);
      const ratings = await ratingsOfCheckIn(deps.personKeyring, checkIn);
      res.write(
        csvRow([
          checkIn._id,
          checkIn.createdAt.toISOString(),
          checkIn.timeOfDay,
          ...dimensions.map((dimension) => ratings[dimension]),
          await deps.personKeyring.open(userId, checkIn.notes),
          quote?._id,
          quote && (await deps.personKeyring.open(userId, quote.text)),
          quote?.isFavorite,
        ]),
      );
    }
    res.end();
  };
  return serviceHttpRoutes('quote', { 'GET /export': [download] });
}
