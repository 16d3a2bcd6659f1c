/**
 * What the Valhalla request/response mappings need of a Valhalla server: one JSON call per action.
 * The HTTP client that implements it is io/valhalla/client.ts.
 */
export type ValhallaAction = 'route' | 'isochrone' | 'sources_to_targets' | 'trace_attributes' | 'optimized_route';

export interface ValhallaClient {
  readonly url: string;
  /** POSTs `body` as JSON to `action`; the parsed JSON of a 2xx answer, else throws a ValhallaFailure. */
  call(action: ValhallaAction, body: unknown): Promise<unknown>;
}
