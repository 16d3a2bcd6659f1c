import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { GeocodeResults, GeocodeSearchQuery, GEOCODING_ERRORS } from '../../../schemas/geocoding-api.ts';
import { errors } from '../../../lib/errors.ts';
import type { FreeText } from '../../../engines/grammars/free-text.ts';
import type { GeocodeResult } from '../../../engines/geocoding/types.ts';
import type { Services } from '../../../services/index.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { sanitizeFreeText } from '../../params/geocoding/free-text.ts';
import { sanitizeSearchControls } from '../../params/geocoding/search-controls.ts';

/** GET /geocode/search: forward geocoding of free text. */
export const geocodeSearchRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/geocode/search', {
    schema: {
      tags: ['geocoding'],
      summary: 'Forward geocoding of free text (addresses, streets, places, localities, provinces, postal codes, land descriptions, well and parcel ids)',
      description: 'The shape of q routes it: a Dominion Land Survey description (NW-25-24-1-W5, 04-11-082-04W6, SW 1/4 11-82-4 W6M) ' +
        'or an NTS / BC grid reference (093F10, B-001-L/093-F-10) answers its survey cell (legal-land add-on); a well identifier ' +
        '(100/06-32-048-07W5/00, 100143608517W600) the wells registered under it (energy add-on); a BC parcel id (012-345-678) its ' +
        'parcel (agriculture add-on). A part out of range is a 400 naming it; a parsed query with no row is [], never an address guess. ' +
        'Hard filters (bbox, layers, region) intersect; contradictory ones return []. focus applies within what survives. ' +
        'layers=well or facility searches the energy corpus by name, UWI, licence or facility id (energy add-on). ' +
        'geometry=true adds the survey cell or parcel polygon. NTS and BC grid cells are exact; DLS cells come from a documented ' +
        'model of the survey (README "Land descriptions, wells and parcels": tens of metres against the test vectors, not the surveyed monuments).',
      querystring: GeocodeSearchQuery,
      response: { 200: GeocodeResults, ...errorResponses(GEOCODING_ERRORS, 400, 403, 503) },
    },
  }, (request) => geocodeSearch(app.services, request.query, request.freeText?.[0]));
};

/** The answer of GET /geocode/search for a validated query (and its free text, when read already): every front door's. */
export function geocodeSearch(services: Services, query: GeocodeSearchQuery, freeText: FreeText | undefined): Promise<GeocodeResult[]> {
  const q = sanitizeFreeText(query.q, freeText);
  if (!q.ok) throw errors.badRequest(q.error);
  const search = sanitizeSearchControls(query);
  if (!search.ok) throw errors.badRequest(search.error);
  return services.geocoding.search({ q: q.value, search: search.value, geometry: query.geometry === true });
}
