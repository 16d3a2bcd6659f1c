/** The curl commands the demo prints, one per kind of answer it serves. */
export function demoExamples(baseUrl: string, key: string): string[] {
  const auth = `-H 'Authorization: Bearer ${key}'`;
  const stop = (id: string) => encodeURIComponent(`svc:transit:stop:${id}`);
  return [
    `curl ${auth} '${baseUrl}/transit/agencies'`,
    `curl ${auth} '${baseUrl}/transit/stops?near=-123.1175,49.2820&radius=500'`,
    `curl ${auth} '${baseUrl}/transit/stops/${stop('vancouver-bus:GRAN_GEORGIA')}/departures?window=120'`,
    `curl ${auth} '${baseUrl}/transit/stops/${stop('toronto-rail:UNION')}/departures'`,
    `curl ${auth} '${baseUrl}/coverage.json'`,
    `curl ${auth} '${baseUrl}/incidents?near=-117.52,51.30&radius=100000'`,
    `curl ${auth} '${baseUrl}/closures'`,
    `curl '${baseUrl}/openapi.json?key=${key}'`,
  ];
}
