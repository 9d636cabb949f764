/** What a REST route of the facade is: its method and path, its one GraphQL operation, how to reply. */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export type Json = Record<string, unknown>;

/** What a route may read besides a JSON body: the query string, the path's `:name` parameters, a header. */
export interface RouteRequest {
  query: Json;
  params: Record<string, string>;
  /** A request header's value (case-insensitive name); undefined when not sent. */
  header: (name: string) => string | undefined;
}

export interface RestRoute {
  method: HttpMethod;
  /** Express path, e.g. `/api/quotes/:id/favorite`. */
  path: string;
  operation: string;
  /**
   * Builds the operation's variables. On POST and PATCH the JSON body must be an object (else 400, nothing
   * run); on GET and DELETE the body is `{}` and the route reads `request.query` / `request.params`.
   */
  variables?: (body: Json, request: RouteRequest) => Json;
  /** Shapes the reply from the operation's data (an object, or a list); null means "not signed in" (401). */
  reply: (data: Json) => Json | Json[] | null;
  /** For a route open to visitors, what a null reply means instead of 401 (e.g. 404: nothing recorded yet). */
  whenNull?: { status: number; message: string };
  /** Reply headers taken from the operation's data (a list's total, `X-Total-Count`). */
  headers?: (data: Json) => Record<string, string>;
  status?: number;
  /** A file download (a CSV export): the reply becomes an attachment instead of JSON. */
  download?: (reply: Json) => { fileName: string; type: string; body: string };
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

/** The body's listed keys that are present (absent keys stay absent, so GraphQL defaults apply). */
export const pick = (body: Json, keys: string[]): Json =>
  Object.fromEntries(keys.filter((key) => body[key] !== undefined).map((key) => [key, body[key]]));

/** The signed-in user from a `me` query; null means "not signed in" (401). */
export const signedIn = (data: Json): Json | null => (data.me as Json | null) ?? null;

/** The user fields every account reply carries (register, login, GET /api/user). */
export const userFields = 'id email firstName lastName profileImageUrl emailVerified isAdmin createdAt';
