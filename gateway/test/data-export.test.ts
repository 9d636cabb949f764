/** The data export's query at the gateway: one federated read of every service's part, none of their fields. */
import { parse, print } from 'graphql';
import { dataExportParts } from '@haven/domain';
import { dataExportOperation } from '../src/rest/routes/privacy';

it('asks each service for its part and nothing else', () => {
  expect(print(parse(dataExportOperation))).toBe(
    print(
      parse(`query DataExport { me {
        accountExport { sections } quoteExport { sections } billingExport { sections }
        notificationExport { sections } complianceExport { sections }
      } }`),
    ),
  );
  expect(dataExportParts).toEqual([
    'accountExport',
    'quoteExport',
    'billingExport',
    'notificationExport',
    'complianceExport',
  ]);
});
