type JsonSchema = Record<string, unknown>;
type Operation = JsonSchema & { responses: Record<string, JsonSchema> };

const CALGARY_TOWER = {
  id: 'oa:ab-calgary:1f6c2a', name: '101 9 Avenue SW, Calgary', layer: 'address', lng: -114.0631, lat: 51.0443, score: 12.7,
  source: 'openaddresses', source_id: 'ab-calgary:1f6c2a', match_type: 'exact', precision: 'point',
  address: { housenumber: '101', street: '9 Avenue SW', city: 'Calgary', region: 'AB', postcode: 'T2P 1J9', country: 'CA' },
};

const DELIVERY_DAY = {
  model: {
    globalStartTime: '2026-03-02T08:00:00-05:00',
    globalEndTime: '2026-03-02T18:00:00-05:00',
    shipments: [
      { label: 'Rideau Centre', deliveries: [{ arrivalLocation: { latitude: 45.4255, longitude: -75.6920 }, duration: '300s' }] },
      { label: 'Byward Market', deliveries: [{ arrivalLocation: { latitude: 45.4289, longitude: -75.6903 }, duration: '300s' }] },
    ],
    vehicles: [{ label: 'van-1', startLocation: { latitude: 45.4215, longitude: -75.6972 }, endLocation: { latitude: 45.4215, longitude: -75.6972 } }],
  },
};

/** Examples of the main requests and answers (Canadian places), by operationId. */
const EXAMPLES: Readonly<Record<string, { request?: unknown; responses?: Record<string, unknown> }>> = {
  geocodeSearch: { responses: { 200: [CALGARY_TOWER], 400: { error: 'q required' } } },
  geocodeBatch: {
    request: { queries: ['101 9 Avenue SW, Calgary', '1 Rue des Carrières, Québec'], lang: 'fr', limit: 1 },
    responses: { 200: [[CALGARY_TOWER], []] },
  },
  optimizeTours: { request: DELIVERY_DAY },
  optimizeToursProject: { request: DELIVERY_DAY },
  sendFeedback: { request: { product: 'geocoding', category: 'incorrect_location', result_id: 'oa:ab-calgary:1f6c2a', description: 'The pin for 101 9 Avenue SW is a block north of the door.' } },
};

/** Adds an operation's examples to its JSON request and answers. */
export function addExamples(operation: Operation): void {
  const examples = EXAMPLES[operation.operationId as string];
  const json = (holder: JsonSchema | undefined) => (holder?.content as Record<string, JsonSchema> | undefined)?.['application/json'];
  const body = json(operation.requestBody as JsonSchema | undefined);
  if (body && examples?.request !== undefined) body.example = examples.request;
  for (const [status, example] of Object.entries(examples?.responses ?? {})) {
    const media = json(operation.responses[status]);
    if (media) media.example = example;
  }
}
