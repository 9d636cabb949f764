/**
 * The newsletter's one-click unsubscribe (RFC 8058), reached through the gateway at
 * /hooks/notification/newsletter/one-click?token=…: a mail client POSTs `List-Unsubscribe=One-Click`
 * without cookies or scripts. A GET (someone opening the link) goes to the page that asks nothing.
 */
import { serviceHttpRoutes, type ServiceHttpRoutes } from '@haven/platform';
import express from 'express';
import { isWellFormedToken, messages } from '../domain/newsletter';
import { unsubscribeByToken, type NewsletterStore } from '../model/newsletter';

export function newsletterHttpRoutes(store: NewsletterStore): ServiceHttpRoutes {
  return serviceHttpRoutes('notification', {
    'POST /newsletter/one-click': [
      express.urlencoded({ extended: false, limit: '1kb' }),
      async (req, res) => {
        const token = req.query.token;
        // A repeated click, or the mail client's POST after the user's own click, answers success again.
        if (!isWellFormedToken(token) || !(await unsubscribeByToken(store, token))) {
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
  });
}
