import { ALL_STYLE_NAMES } from '../engines/styles/style-names.ts';
import { Refusal, errors } from '../lib/errors.ts';

/**
 * Paths whose id segment the router cannot even take (a bad percent-escape, over 1,024
 * characters): each still names an unknown record of its endpoint, so it gets that endpoint's
 * JSON 404, not the plain-text one of a path we do not serve (a glyph font stack is malformed:
 * 400). One entry per id route.
 */
const ID_ROUTES: readonly { path: RegExp; answer: () => Refusal }[] = [
  { path: /^\/glyphs\/[^/?]+\/[^/?]+\/[^/?]+(?:\?|$)/, answer: () => errors.tileBadRequest('invalid fontstack') },
  { path: /^\/places\/[^/?]+(?:\/feedback)?(?:\?|$)/, answer: errors.placeNotFound },
  { path: /^\/transit\/stops\/[^/?]+(?:\/departures)?(?:\?|$)/, answer: () => errors.notFound('stop not found') },
  { path: /^\/transit\/routes\/[^/?]+(?:\?|$)/, answer: () => errors.notFound('route not found') },
  { path: /^\/byod\/[^/?]+(?:\/data|\/tiles\.json)?(?:\?|$)/, answer: () => errors.notFound('overlay not found') },
  { path: /^\/byod\/[^/?]+\/[^/?]+\/[^/?]+\/[^/?]+(?:\?|$)/, answer: () => errors.tileNotFound('overlay not found') },
  { path: /^\/styles\/[^/?]+(?:\?|$)/, answer: () => errors.unknownStyle(ALL_STYLE_NAMES) },
  { path: /^\/layers\/[^/?]+(?:\/tiles\.json)?(?:\?|$)/, answer: () => errors.notFound('unknown layer') },
  { path: /^\/layers\/[^/?]+\/[^/?]+\/[^/?]+\/[^/?]+(?:\?|$)/, answer: () => errors.tileNotFound('unknown layer') },
];

/** The answer to a URL the router refused: the endpoint's 404 for an id route, else the unserved path. */
export function unroutableAnswer(url: string): Refusal {
  return ID_ROUTES.find((route) => route.path.test(url))?.answer() ?? errors.unservedPath();
}
