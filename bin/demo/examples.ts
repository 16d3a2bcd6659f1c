const at = (longitude: number, latitude: number) => ({ latitude, longitude });

/** Three deliveries downtown by one van from Canada Place and back, by road, drawn along the roads. */
export const DEMO_OPTIMIZATION = {
  populatePolylines: true,
  // The dev plan's longest solve: a cold routing graph on a busy machine may need more than the default 2 s.
  timeout: '10s',
  model: {
    // A working day in Vancouver, 08:00 to 18:00 PDT, so the plan's times read as a day's deliveries.
    globalStartTime: '2026-06-15T15:00:00Z',
    globalEndTime: '2026-06-16T01:00:00Z',
    shipments: [at(-123.1207, 49.2827), at(-123.1100, 49.2700), at(-123.1390, 49.2750)]
      .map((place, i) => ({ label: `parcel-${i + 1}`, deliveries: [{ arrivalLocation: place, duration: '180s' }] })),
    vehicles: [{ label: 'van', startLocation: at(-123.1115, 49.2856), endLocation: at(-123.1115, 49.2856), costPerHour: 30 }],
  },
};

/**
 * A dev origin (lib/dev-origins.ts). The demo's key is on the dev plan, which serves the premium
 * layers and grammars (legal land, energy, parcels) only to requests from dev origins.
 */
export const DEV_ORIGIN = 'http://localhost:5173';

/**
 * The commands the demo prints, one per kind of answer it serves. Each answers 2xx with data as
 * printed (test/demo/examples.test.ts runs every line as printed).
 */
export function demoExamples(baseUrl: string, key: string): string[] {
  const auth = `-H 'Authorization: Bearer ${key}'`;
  const dev = `${auth} -H 'Origin: ${DEV_ORIGIN}'`;
  const stop = (id: string) => encodeURIComponent(`svc:transit:stop:${id}`);
  return [
    `curl ${auth} '${baseUrl}/transit/agencies'`,
    `curl ${auth} '${baseUrl}/transit/stops?near=-123.1175,49.2820&radius=500'`,
    `curl ${auth} '${baseUrl}/transit/stops/${stop('vancouver-bus:GRAN_GEORGIA')}/departures?window=120'`,
    `curl ${auth} '${baseUrl}/transit/stops/${stop('toronto-rail:UNION')}/departures'`,
    `curl ${auth} '${baseUrl}/coverage.json'`,
    `curl ${auth} '${baseUrl}/incidents?near=-117.52,51.30&radius=100000'`,
    `curl ${auth} '${baseUrl}/closures'`,
    `curl ${auth} '${baseUrl}/geocode/search?q=111+Wellington+St+Ottawa'`,
    `curl ${auth} '${baseUrl}/geocode/search?q=1200+boul+Rene-Levesque+O+Montreal'`,
    `curl ${auth} '${baseUrl}/geocode/autocomplete?q=queb'`,
    `curl ${auth} '${baseUrl}/geocode/nearby?category=ev+charger&near=-75.6953,45.4206'`,
    `curl ${auth} '${baseUrl}/geocode/reverse?lon=-123.1209&lat=49.2828'`,
    `curl ${auth} -H 'Content-Type: application/json' -d '{"queries":["k1a 0a9","Gare Centrale"]}' '${baseUrl}/geocode/batch'`,
    `curl ${dev} '${baseUrl}/geocode/search?q=NW-25-24-1-W5&geometry=true'`,
    `curl ${dev} '${baseUrl}/geocode/search?q=SW+1%2F4+11-82-4+W6M'`,
    `curl ${dev} '${baseUrl}/geocode/search?q=B-001-L%2F093-F-10'`,
    `curl ${dev} '${baseUrl}/geocode/reverse?lon=-114.0719&lat=51.0447&layers=legal_land'`,
    `curl ${dev} '${baseUrl}/geocode/search?q=100%2F06-32-048-07W5%2F00'`,
    `curl ${dev} '${baseUrl}/geocode/search?q=kaybob&layers=facility'`,
    `curl ${dev} '${baseUrl}/geocode/search?q=009-123-000'`,
    `curl ${auth} '${baseUrl}/layers'`,
    `curl ${auth} '${baseUrl}/identify?at=-73.60,45.485'`,
    `curl ${dev} '${baseUrl}/data/query?layer=energy.wells&bbox=-115,52,-114,53&limit=3'`,
    `curl -s -o /dev/null -w '%{http_code} %{content_type} %{size_download} bytes\\n' '${baseUrl}/layers/municipalities/10/187/342?key=${key}'`,
    `curl -s -o /dev/null -w '%{http_code} %{content_type} %{size_download} bytes\\n' '${baseUrl}/tiles/14/2588/5606?key=${key}'`,
    `curl ${auth} '${baseUrl}/styles/base-light.json?lang=fr'`,
    `curl ${auth} '${baseUrl}/route?from=-123.1115,49.2856&to=-123.1390,49.2750'`,
    `curl ${auth} '${baseUrl}/route?from=-123.1115,49.2856&to=-123.1390,49.2750&mode=truck&height=4.5&hazmat=true'`,
    `curl ${auth} '${baseUrl}/isochrone?lon=-123.1207&lat=49.2827&minutes=5,10&mode=pedestrian'`,
    `curl ${auth} -H 'Content-Type: application/json' -d '{"origins":[[-123.1115,49.2856],[-123.1390,49.2750]],"destinations":[[-123.1207,49.2827],[-123.1100,49.2700]]}' '${baseUrl}/matrix'`,
    `curl ${auth} -H 'Content-Type: application/json' -d '${JSON.stringify(DEMO_OPTIMIZATION)}' '${baseUrl}/optimize'`,
    `curl '${baseUrl}/openapi.json?key=${key}'`,
    // The agent interface (docs/mcp.md): a tool call is one call of the endpoint it stands for.
    `curl ${auth} -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"transit_departures","arguments":{"id":"svc:transit:stop:vancouver-bus:GRAN_GEORGIA","window":120}}}' '${baseUrl}/mcp'`,
    `open in a browser, the map page (README "The map page"): ${baseUrl}/map/?key=${key}`,
    // Access: a premium layer from a dev origin works on the dev plan (from any other origin it is 403 dev_only).
    `curl ${dev} '${baseUrl}/geocode/search?q=Crossfield+gas+plant&layers=facility'`,
    `curl ${auth} -H 'Content-Type: application/json' -d '{"product":"geocoding","category":"incorrect_location","description":"pin is one block east","result_id":"demo"}' '${baseUrl}/feedback'`,
    'node bin/canmap.js usage --account demo',
  ];
}
