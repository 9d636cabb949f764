import DataLoader from 'dataloader';
import type { Role } from './access';
import type { CallerSecrets } from './auth';
import { CallerRoleDocument } from './operations/user.generated';
import { askSubgraph } from './subgraph-client';

/**
 * Where a service that does not own roles learns the caller's: it asks the user service, which decides
 * roles, with the caller's own bearer token (`{ me { role } }`). Called only when a check needs the role
 * (an owner reading their own data never does), at most once per request (see accessFacts), with the asking
 * service's credentials (askSubgraph).
 */
export function roleFromUserService(
  config: { USER_SERVICE_URL: string } & CallerSecrets,
  sessionToken: string,
): () => Promise<Role> {
  return async () => {
    const data = await askSubgraph(
      { url: config.USER_SERVICE_URL, credentials: config, sessionToken },
      CallerRoleDocument,
      {},
      'user service',
    );
    // A revoked session (me: null) is nobody's admin.
    return data.me?.role === 'ADMIN' ? 'admin' : 'member';
  };
}

/** What a subgraph that extends User receives for it: the key, nothing more (codegen maps `User` to it). */
export interface UserReference {
  id: string;
}

const loadersByRequest = new WeakMap<object, Map<string, DataLoader<string, unknown>>>();

/**
 * A DataLoader that lives as long as one request (keyed on its context object): the N entity references
 * of a list arrive as N `load` calls in one tick and leave as one `$in` query. `batch` gets the distinct
 * ids and returns what it found by id; ids it did not find load as null.
 */
export function requestLoader<Value>(
  context: object,
  name: string,
  batch: (ids: readonly string[]) => Promise<Map<string, Value>>,
): DataLoader<string, Value | null> {
  let loaders = loadersByRequest.get(context);
  if (!loaders) {
    loaders = new Map();
    loadersByRequest.set(context, loaders);
  }
  let loader = loaders.get(name) as DataLoader<string, Value | null> | undefined;
  if (!loader) {
    loader = new DataLoader<string, Value | null>(async (ids) => {
      const found = await batch(ids);
      return ids.map((id) => found.get(id) ?? null);
    });
    loaders.set(name, loader as DataLoader<string, unknown>);
  }
  return loader;
}

/** The usual batch: documents whose `_id` is in the list, by id. */
export async function byIds<Doc extends { _id: string }>(
  find: (filter: { _id: { $in: string[] } }) => Promise<Doc[]>,
  ids: readonly string[],
): Promise<Map<string, Doc>> {
  const documents = await find({ _id: { $in: [...ids] } });
  return new Map(documents.map((document) => [document._id, document]));
}
