/** The 400 wording of each way a `bbox=west,south,east,north` parameter can be malformed (lib/geo/parse.ts parseBBox). */
export const BBOX_WORDING: Record<'format' | 'range' | 'south-north' | 'west-east', string> = {
  format: 'bbox must be west,south,east,north with 4 finite numbers, e.g. bbox=-123.5,48.3,-123.2,48.6',
  range: 'bbox must be west,south,east,north with longitudes between -180 and 180 and latitudes between -90 and 90',
  'south-north': 'bbox south must not be greater than north (bbox is west,south,east,north)',
  'west-east': 'bbox west must not be greater than east (bbox is west,south,east,north)',
};
