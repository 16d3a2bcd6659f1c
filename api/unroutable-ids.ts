import { ALL_STYLE_NAMES } from '../engines/styles/style-names.ts';
import { ApiError, errors } from './errors.ts';

/**
 * Paths whose id segment the router cannot even take (a bad percent-escape, over 1,024
 * characters): each still names an unknown record of its endpoint, so it gets that endpoint's
 * JSON 404, not the plain-text one of a path we do not serve. One entry per id route.
 */
const ID_ROUTES: readonly { path: RegExp; notFound: () => ApiError }[] = [
  { path: /^\/places\/[^/?]+(?:\/feedback)?(?:\?|$)/, notFound: errors.placeNotFound },
  { path: /^\/transit\/stops\/[^/?]+(?:\/departures)?(?:\?|$)/, notFound: () => errors.notFound('stop not found') },
  { path: /^\/transit\/routes\/[^/?]+(?:\?|$)/, notFound: () => errors.notFound('route not found') },
  { path: /^\/byod\/[^/?]+(?:\/data)?(?:\?|$)/, notFound: () => errors.notFound('overlay not found') },
  { path: /^\/byod\/[^/?]+\/[^/?]+\/[^/?]+\/[^/?]+(?:\?|$)/, notFound: () => errors.tileNotFound('overlay not found') },
  { path: /^\/styles\/[^/?]+(?:\?|$)/, notFound: () => errors.unknownStyle(ALL_STYLE_NAMES) },
  { path: /^\/layers\/[^/?]+(?:\?|$)/, notFound: () => errors.notFound('unknown layer') },
  { path: /^\/layers\/[^/?]+\/[^/?]+\/[^/?]+\/[^/?]+(?:\?|$)/, notFound: () => errors.tileNotFound('unknown layer') },
];

/** The answer to a URL the router refused: the endpoint's 404 for an id route, else the unserved path. */
export function unroutableAnswer(url: string): ApiError {
  return ID_ROUTES.find((route) => route.path.test(url))?.notFound() ?? errors.unservedPath();
}
