/**
 * The GTFS files and columns the builder reads. Every column listed becomes a VARCHAR column
 * of the raw table (NULL when the feed's file lacks it), so the SQL after loading never has to
 * ask which optional columns a feed has.
 */
export const GTFS_COLUMNS = {
  agency: ['agency_id', 'agency_name', 'agency_url', 'agency_timezone', 'agency_lang', 'agency_phone'],
  stops: ['stop_id', 'stop_code', 'stop_name', 'stop_lat', 'stop_lon', 'location_type', 'parent_station', 'stop_timezone', 'wheelchair_boarding'],
  routes: ['route_id', 'agency_id', 'route_short_name', 'route_long_name', 'route_desc', 'route_type', 'route_url', 'route_color', 'route_text_color'],
  trips: ['trip_id', 'route_id', 'service_id', 'trip_headsign', 'trip_short_name', 'direction_id'],
  stop_times: ['trip_id', 'arrival_time', 'departure_time', 'stop_id', 'stop_sequence', 'stop_headsign', 'pickup_type', 'drop_off_type'],
  calendar: ['service_id', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'start_date', 'end_date'],
  calendar_dates: ['service_id', 'date', 'exception_type'],
  feed_info: ['feed_version'],
  frequencies: ['trip_id'],
  transfers: ['from_stop_id', 'to_stop_id', 'transfer_type', 'min_transfer_time', 'from_route_id', 'to_route_id', 'from_trip_id', 'to_trip_id'],
} as const;

export type GtfsTable = keyof typeof GTFS_COLUMNS;

export const REQUIRED_FILES: GtfsTable[] = ['agency', 'stops', 'routes', 'trips', 'stop_times'];

/** Columns a file must have in its header when it is present. */
export const REQUIRED_COLUMNS: Partial<Record<GtfsTable, string[]>> = {
  agency: ['agency_name', 'agency_timezone'],
  stops: ['stop_id'],
  routes: ['route_id', 'route_type'],
  trips: ['trip_id', 'route_id', 'service_id'],
  stop_times: ['trip_id', 'stop_id', 'stop_sequence', 'arrival_time', 'departure_time'],
  calendar: ['service_id', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'start_date', 'end_date'],
  calendar_dates: ['service_id', 'date', 'exception_type'],
  transfers: ['from_stop_id', 'to_stop_id', 'transfer_type'],
};
