/** What a REST route of the facade is: its method and path, its one GraphQL operation, how to reply. */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export type Json = Record<string, unknown>;

/** What a route may read besides a JSON body: the query string, the path's `:name` parameters, a header. */
export interface RouteRequest {
  query: Json;
  params: Record<string, string>;
  /** A request header's value (case-insensitive name); undefined when not sent. */
  header: (name: string) => string | undefined;
}

/** A reply: a JSON object, a list of them, or null for "not signed in" (401, or the route's `whenNull`). */
export type Reply = Json | Json[] | null;

/**
 * A route as its file declares it: the operation is a generated TypedDocumentNode (its `<area>.graphql` beside
 * the routes file, `make codegen`), so `reply` and `headers` receive the operation's own result type and reading
 * a field it does not ask fails to compile.
 */
export interface RouteDefinition<Data, Shaped extends Reply> {
  method: HttpMethod;
  /** Express path, e.g. `/api/quotes/:id/favorite`. */
  path: string;
  document: TypedDocumentNode<Data, never>;
  /**
   * Builds the operation's variables. On POST and PATCH the JSON body must be an object (else 400, nothing
   * run); on GET and DELETE the body is `{}` and the route reads `request.query` / `request.params`. They stay
   * plain JSON: what a client sent, which GraphQL's input coercion checks (a 400 naming the field).
   */
  variables?: (body: Json, request: RouteRequest) => Json;
  /** Shapes the reply from the operation's data (an object, or a list); null means "not signed in" (401). */
  reply: (data: Data) => Shaped;
  /** For a route open to visitors, what a null reply means instead of 401 (e.g. 404: nothing recorded yet). */
  whenNull?: { status: number; message: string };
  /** Reply headers taken from the operation's data (a list's total, `X-Total-Count`). */
  headers?: (data: Data) => Record<string, string>;
  status?: number;
  /** A file download (a CSV export): the reply becomes an attachment instead of JSON. */
  download?: (reply: Exclude<Shaped, null | Json[]>) => { fileName: string; type: string; body: string };
  /**
   * A check of the body's shape that GraphQL's input coercion would blur (it turns a lone string into a
   * one-item list): a problem is answered 400 `{ message, field }` and the operation does not run.
   */
  validate?: (body: Json) => { field: string; message: string } | null;
  /**
   * A body limit of the route's own, above the facade's: the largest valid input must fit. A bigger body gets
   * 400 `{ message, field }` naming the field that makes it too big, and the operation does not run.
   */
  bodyLimit?: { bytes: number; field: string; message: string };
}

/**
 * A route of the table, as the router and the checks read it: the operation as the text sent (printed once from
 * its document), and its data as the JSON the gateway answered.
 */
export interface RestRoute extends Omit<RouteDefinition<Json, Reply>, 'document' | 'download'> {
  operation: string;
  download?: (reply: Json) => { fileName: string; type: string; body: string };
}

/**
 * A route for the table. The data the router hands `reply`, `headers` and `download` is what the route's own
 * operation returned, so each keeps the type its definition was checked with.
 */
export function restRoute<Data, Shaped extends Reply>({
  document,
  ...route
}: RouteDefinition<Data, Shaped>): RestRoute {
  return { ...(route as unknown as Omit<RestRoute, 'operation'>), operation: print(document) };
}

/** The body's listed keys that are present (absent keys stay absent, so GraphQL defaults apply). */
export const pick = (body: Json, keys: string[]): Json =>
  Object.fromEntries(keys.filter((key) => body[key] !== undefined).map((key) => [key, body[key]]));

/** The signed-in user from a `me` query; null means "not signed in" (401). */
export const signedIn = <Me>(data: { me: Me | null }): Me | null => data.me ?? null;
