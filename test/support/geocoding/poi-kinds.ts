/**
 * What a synthetic POI is: OSM tags that the project's own categoryForOsmTags maps to a taxonomy
 * id (checked when this module loads, so a tag the mapping does not know fails at once), a
 * weight roughly like their frequency in Canadian OSM data, and real Canadian chain names for
 * the categories where chains are common. Display names of the rest come from the taxonomy
 * (names.en / names.fr) joined to a street or locality name.
 */
import { categoryForOsmTags, TAXONOMY } from '../../../engines/geocoding/taxonomy.ts';
import { weightedTable } from '../../../lib/seeded-random.ts';

export interface PoiKind {
  tags: Readonly<Record<string, string>>;
  category: string;
  names: { en: string; fr: string };
  /** Chain names (national, or per province via `QC:` prefix). */
  brands: readonly string[];
}

type Row = [tags: Record<string, string>, weight: number, brands?: string[]];

const ROWS: Row[] = [
  [{ amenity: 'restaurant' }, 10, ['The Keg', "Swiss Chalet", "Boston Pizza", "East Side Mario's", "Montana's", 'St-Hubert', 'Cora', "Denny's"]],
  [{ amenity: 'fast_food' }, 8, ['Tim Hortons', "McDonald's", 'Subway', 'A&W', "Harvey's", "Wendy's", 'Pizza Pizza', 'Burger King', "Mary Brown's", 'Dairy Queen']],
  [{ amenity: 'cafe' }, 6, ['Starbucks', 'Second Cup', 'Tim Hortons', 'Van Houtte', 'Balzac\'s Coffee']],
  [{ amenity: 'bar' }, 2],
  [{ amenity: 'pub' }, 2],
  [{ shop: 'bakery' }, 2, ['COBS Bread', 'Première Moisson']],
  [{ amenity: 'ice_cream' }, 1, ['Marble Slab Creamery', 'Baskin-Robbins']],
  [{ amenity: 'food_court' }, 0.2],
  [{ shop: 'supermarket' }, 3, ['Loblaws', 'Sobeys', 'Metro', 'IGA', 'Safeway', 'Save-On-Foods', 'No Frills', 'FreshCo', 'Food Basics', 'Provigo', 'Maxi', 'Super C', 'Real Canadian Superstore', 'Co-op']],
  [{ shop: 'convenience' }, 5, ['Couche-Tard', 'Circle K', '7-Eleven', "Mac's", 'Quickie']],
  [{ shop: 'mall' }, 0.4],
  [{ shop: 'department_store' }, 0.5, ['Canadian Tire', 'Walmart', 'Giant Tiger', "Hudson's Bay", 'Winners', 'Dollarama']],
  [{ shop: 'clothes' }, 4, ['Mark\'s', 'Roots', 'Reitmans', 'Old Navy', 'Simons', 'La Maison Simons', 'Aritzia']],
  [{ shop: 'shoes' }, 1, ['Payless ShoeSource', 'Aldo', 'SoftMoc']],
  [{ shop: 'electronics' }, 1.5, ['Best Buy', 'The Source', 'Staples']],
  [{ shop: 'hardware' }, 1, ['Home Hardware', 'RONA', 'The Home Depot', 'Canac', 'BMR', 'Lowe\'s']],
  [{ shop: 'furniture' }, 1, ['The Brick', 'Leon\'s', 'Structube', 'IKEA']],
  [{ shop: 'alcohol' }, 1, ['LCBO', 'SAQ', 'BC Liquor Store', 'The Beer Store', 'NSLC', 'Liquor Depot']],
  [{ shop: 'cannabis' }, 0.7, ['SQDC', 'Ontario Cannabis Store', 'Spiritleaf', 'Tokyo Smoke']],
  [{ shop: 'butcher' }, 0.5],
  [{ shop: 'florist' }, 0.7],
  [{ shop: 'books' }, 0.5, ['Indigo', 'Chapters', 'Coles', 'Renaud-Bray']],
  [{ shop: 'sports' }, 0.7, ['Sport Chek', 'Sports Experts', 'MEC', 'Atmosphere']],
  [{ shop: 'pet' }, 0.7, ['PetSmart', 'Pet Valu', 'Global Pet Foods']],
  [{ shop: 'jewelry' }, 0.7, ['Peoples Jewellers', 'Michael Hill']],
  [{ shop: 'gift' }, 0.7],
  [{ shop: 'bicycle' }, 0.4],
  [{ shop: 'hairdresser' }, 4, ['First Choice Haircutters', 'Great Clips', 'Magicuts']],
  [{ shop: 'laundry' }, 1],
  [{ amenity: 'pharmacy' }, 2, ['Shoppers Drug Mart', 'Pharmaprix', 'Jean Coutu', 'Rexall', 'London Drugs', 'Uniprix', 'Familiprix', 'Guardian']],
  [{ amenity: 'hospital' }, 0.2],
  [{ amenity: 'clinic' }, 2],
  [{ amenity: 'dentist' }, 2],
  [{ amenity: 'veterinary' }, 0.7],
  [{ shop: 'optician' }, 0.7, ['Hakim Optical', 'IRIS', 'FYidoctors']],
  [{ amenity: 'bank' }, 2, ['RBC Royal Bank', 'TD Canada Trust', 'BMO', 'Scotiabank', 'CIBC', 'National Bank', 'Desjardins', 'ATB Financial']],
  [{ amenity: 'atm' }, 2, ['RBC Royal Bank', 'TD Canada Trust', 'BMO', 'Scotiabank', 'CIBC', 'Desjardins']],
  [{ amenity: 'school' }, 3],
  [{ amenity: 'kindergarten' }, 1],
  [{ amenity: 'college' }, 0.3],
  [{ amenity: 'university' }, 0.1],
  [{ amenity: 'childcare' }, 1.5],
  [{ amenity: 'library' }, 0.5],
  [{ tourism: 'museum' }, 0.4],
  [{ tourism: 'gallery' }, 0.3],
  [{ amenity: 'cinema' }, 0.2, ['Cineplex', 'Landmark Cinemas', 'Cinéma Guzzo']],
  [{ amenity: 'theatre' }, 0.3],
  [{ amenity: 'arts_centre' }, 0.2],
  [{ amenity: 'nightclub' }, 0.3],
  [{ amenity: 'casino' }, 0.05],
  [{ amenity: 'community_centre' }, 0.8],
  [{ railway: 'station' }, 0.2],
  [{ amenity: 'fuel' }, 2, ['Petro-Canada', 'Esso', 'Shell', 'Ultramar', 'Irving', 'Husky', 'Chevron', 'Pioneer']],
  [{ amenity: 'charging_station' }, 1.5, ['Tesla Supercharger', 'FLO', 'Electrify Canada', 'Petro-Canada EV Fast Charger', 'Circuit électrique']],
  [{ amenity: 'parking' }, 4],
  [{ amenity: 'car_rental' }, 0.4, ['Enterprise', 'Budget', 'Avis', 'Hertz', 'Discount Car and Truck Rentals']],
  [{ amenity: 'car_wash' }, 0.5],
  [{ shop: 'car_repair' }, 2, ['Midas', 'Mr. Lube', 'Jiffy Lube', 'Kal Tire', 'Canadian Tire Auto Service']],
  [{ shop: 'car' }, 1],
  [{ amenity: 'bus_station' }, 0.1],
  [{ amenity: 'ferry_terminal' }, 0.05],
  [{ amenity: 'taxi' }, 0.2],
  [{ amenity: 'bicycle_rental' }, 0.5, ['Bixi', 'Mobi', 'Bike Share Toronto']],
  [{ tourism: 'hotel' }, 1, ['Holiday Inn Express', 'Best Western', 'Comfort Inn', 'Delta Hotels', 'Fairmont', 'Super 8', 'Sandman Hotel']],
  [{ tourism: 'motel' }, 0.5],
  [{ tourism: 'hostel' }, 0.1, ['HI Hostel']],
  [{ tourism: 'guest_house' }, 0.4],
  [{ tourism: 'camp_site' }, 0.3],
  [{ tourism: 'attraction' }, 0.3],
  [{ tourism: 'viewpoint' }, 0.3],
  [{ tourism: 'information', information: 'office' }, 0.2],
  [{ tourism: 'zoo' }, 0.03],
  [{ tourism: 'theme_park' }, 0.03],
  [{ tourism: 'artwork' }, 0.5],
  [{ tourism: 'picnic_site' }, 0.5],
  [{ leisure: 'park' }, 4],
  [{ leisure: 'playground' }, 2],
  [{ leisure: 'sports_centre' }, 0.7],
  [{ leisure: 'fitness_centre' }, 1.5, ['GoodLife Fitness', 'Anytime Fitness', 'Planet Fitness', 'Énergie Cardio', 'Orangetheory Fitness']],
  [{ leisure: 'swimming_pool' }, 0.5],
  [{ leisure: 'golf_course' }, 0.3],
  [{ leisure: 'stadium' }, 0.1],
  [{ leisure: 'ice_rink' }, 0.5],
  [{ leisure: 'marina' }, 0.2],
  [{ amenity: 'place_of_worship' }, 3],
  [{ amenity: 'townhall' }, 0.2],
  [{ amenity: 'police' }, 0.3],
  [{ amenity: 'fire_station' }, 0.4],
  [{ amenity: 'post_office' }, 0.6, ['Canada Post']],
  [{ amenity: 'courthouse' }, 0.1],
];

function kindOf([tags, , brands]: Row): PoiKind {
  const category = categoryForOsmTags(tags);
  if (!category) throw new Error(`categoryForOsmTags maps no category for ${JSON.stringify(tags)}`);
  const entry = TAXONOMY.find((t) => t.id === category);
  if (!entry) throw new Error(`category ${category} of ${JSON.stringify(tags)} is not in the taxonomy`);
  return { tags, category, names: entry.names, brands: brands ?? [] };
}

export const POI_KINDS = weightedTable(ROWS.map((row) => [kindOf(row), row[1]] as const));

/** Taxonomy ids the generator produces (the nearby benchmark asks for these). */
export const POI_CATEGORIES: readonly string[] = [...new Set(POI_KINDS.items.map((k) => k.category))];

/** Categories whose features are often unnamed in OSM (an ATM, a charging station, a car park). */
export const OFTEN_UNNAMED = new Set(['finance.atm', 'transport.charging_station', 'transport.parking', 'leisure.playground', 'tourism.picnic_site']);

/** Brands that belong to one province only. */
export const PROVINCIAL_BRANDS: Readonly<Record<string, string>> = {
  LCBO: 'ON', SAQ: 'QC', 'BC Liquor Store': 'BC', 'The Beer Store': 'ON', NSLC: 'NS', 'Liquor Depot': 'AB', SQDC: 'QC',
  'Ontario Cannabis Store': 'ON', Pharmaprix: 'QC', 'Jean Coutu': 'QC', Uniprix: 'QC', Familiprix: 'QC', Provigo: 'QC', Maxi: 'QC',
  'Super C': 'QC', Desjardins: 'QC', 'ATB Financial': 'AB', Bixi: 'QC', Mobi: 'BC', 'Bike Share Toronto': 'ON', 'Circuit électrique': 'QC',
  'Cinéma Guzzo': 'QC', 'Renaud-Bray': 'QC', 'Énergie Cardio': 'QC', 'Première Moisson': 'QC', Canac: 'QC', BMR: 'QC', 'St-Hubert': 'QC',
  'Van Houtte': 'QC', 'Sports Experts': 'QC', 'Simons': 'QC', 'La Maison Simons': 'QC', 'Save-On-Foods': 'BC', 'London Drugs': 'BC',
};
