import {
  baseConfigShape,
  roleFromUserService,
  userServiceConfigShape,
  booleanFromEnv,
  defineService,
  runMain,
} from '@haven/platform';
import { z } from 'zod';
import { notificationConsumers } from './events/consumers';
import { securityEmailConsumers } from './events/security-emails';
import { createMailer, createTransport } from './events/mailer';
import { deliveryModel } from './model/delivery';
import { preferencesModel } from './model/preferences';
import { notificationResolvers } from './resolvers';

/** The notification service: every e-mail Haven sends, and users' e-mail preferences. */
export const startNotificationService = defineService({
  name: 'notification',
  configShape: {
    ...baseConfigShape('notification'),
    ...userServiceConfigShape,
    SMTP_HOST: z.string().min(1).default('127.0.0.1'),
    SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(1025),
    SMTP_SECURE: booleanFromEnv.default(false),
    SMTP_USER: z.string().optional(),
    SMTP_PASS: z.string().optional(),
    MAIL_FROM: z.string().min(3).default('Haven <hello@haven.local>'),
    APP_URL: z.url().default('http://localhost:4000'),
    PRODUCT_NAME: z.string().min(1).default('Haven'),
  },
  dir: __dirname,
  build: ({ connection, config, log }) => {
    const transport = createTransport({
      host: config.SMTP_HOST,
      port: config.SMTP_PORT,
      secure: config.SMTP_SECURE,
      user: config.SMTP_USER,
      pass: config.SMTP_PASS,
      from: config.MAIL_FROM,
    });
    const mailer = createMailer(transport, config.MAIL_FROM, deliveryModel(connection), log);
    const preferences = preferencesModel(connection);
    return {
      resolvers: notificationResolvers(preferences),
      accessSources: (token: string) => ({ role: roleFromUserService(config, token) }),
      consumers: [
        ...notificationConsumers({ mailer, appUrl: config.APP_URL, productName: config.PRODUCT_NAME }),
        ...securityEmailConsumers({ mailer, preferences, appUrl: config.APP_URL, productName: config.PRODUCT_NAME }),
      ],
      onStop: () => mailer.close(),
    };
  },
});

if (require.main === module) runMain(startNotificationService);
