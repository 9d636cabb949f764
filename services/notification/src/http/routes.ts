/**
 * The one-click routes (RFC 8058), reached through the gateway at /hooks/notification/…?token=…: a mail client
 * POSTs `List-Unsubscribe=One-Click` without cookies or scripts. A GET (someone opening the link) goes to the
 * app's page for the link. The newsletter's leaves its list; a stop link's turns its switch off.
 */
import { serviceHttpRoutes, type ServiceHttpRoutes } from '@haven/platform';
import express from 'express';
import type { Model } from 'mongoose';
import { messages } from '../domain/newsletter';
import { stopMessages } from '../domain/stop-links';
import type { KnownUserRecord } from '../model/known-user';
import { unsubscribeByToken, type NewsletterStore } from '../model/newsletter';
import { stopByLink } from '../model/preferences';

const oneClickForm = express.urlencoded({ extended: false, limit: '1kb' });

export function oneClickHttpRoutes(
  store: NewsletterStore & { knownUsers: Model<KnownUserRecord> },
  linkKey: Buffer,
): ServiceHttpRoutes {
  return serviceHttpRoutes('notification', {
    'POST /newsletter/one-click': [
      oneClickForm,
      async (req, res) => {
        const token = req.query.token;
        // A repeated click, or the mail client's POST after the user's own click, answers success again.
        if (!(await unsubscribeByToken(store, linkKey, token))) {
          res.status(400).json({ unsubscribed: false, message: messages.invalidUnsubscribe });
          return;
        }
        res.status(200).json({ unsubscribed: true, message: messages.unsubscribed });
      },
    ],
    'GET /newsletter/one-click': [
      (req, res) => {
        const token = typeof req.query.token === 'string' ? req.query.token : '';
        res.redirect(302, `/unsubscribe-newsletter?token=${encodeURIComponent(token)}`);
      },
    ],
    'POST /emails/one-click': [
      oneClickForm,
      async (req, res) => {
        const stopped = await stopByLink(store, linkKey, req.query.token);
        if (!stopped) {
          res.status(400).json({ stopped: false, message: stopMessages.invalid });
          return;
        }
        res.status(200).json({ stopped: true, ...stopped });
      },
    ],
    'GET /emails/one-click': [
      (req, res) => {
        const token = typeof req.query.token === 'string' ? req.query.token : '';
        res.redirect(302, `/stop-emails?token=${encodeURIComponent(token)}`);
      },
    ],
  });
}
