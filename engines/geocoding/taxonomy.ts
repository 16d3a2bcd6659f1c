/**
 * The POI taxonomy as data: 91 ids in 12 groups, with English and French display names and the
 * English and French words that resolve to each id (folded by the engine at load), plus the
 * OSM tag mapping used by the OSM extract.
 *
 * The 71 ids volume 2 lists under /geocode/nearby are all here (its cut-off `tourism.pic` is
 * `tourism.picnic_site`). The 20 further ids: leisure.park, playground, sports_centre,
 * fitness_centre, swimming_pool, golf_course, stadium, ice_rink, marina;
 * religion.place_of_worship; government.townhall, police, fire_station, post_office,
 * courthouse; culture.community_centre; transport.bicycle_rental; shop.hairdresser,
 * shop.laundry; education.childcare.
 *
 * An alias belongs to one id only (a word that could mean two categories, such as "station"
 * or "market", is left out rather than guessed).
 */
import type { TaxonomyEntry } from './corpus.ts';

type Row = [id: string, en: string, fr: string, aliases: string[]];

const ROWS: Row[] = [
  // food
  ['food.restaurant', 'Restaurant', 'Restaurant', ['restaurants', 'dining', 'diner', 'eatery', 'food', 'restos', 'resto', 'nourriture', 'manger']],
  ['food.fast_food', 'Fast food', 'Restauration rapide', ['fast food', 'fastfood', 'takeout', 'take out', 'burger', 'burgers', 'pizza', 'casse-croûte', 'casse croûte', 'restauration rapide', 'restaurant rapide', 'poutine']],
  ['food.cafe', 'Café', 'Café', ['coffee', 'coffee shop', 'coffee house', 'cafe', 'cafes', 'cafés', 'espresso', 'tea room', 'salon de thé']],
  ['food.bar', 'Bar', 'Bar', ['bars', 'cocktail bar', 'lounge', 'wine bar', 'bar à vin']],
  ['food.pub', 'Pub', 'Pub', ['pubs', 'brewpub', 'tavern', 'taverne', 'brasserie', 'microbrasserie']],
  ['food.bakery', 'Bakery', 'Boulangerie', ['bakeries', 'bakeshop', 'bread', 'pastry', 'pastries', 'pâtisserie', 'pain', 'boulangeries']],
  ['food.ice_cream', 'Ice cream', 'Crème glacée', ['ice cream', 'ice cream shop', 'gelato', 'frozen yogurt', 'crème glacée', 'glacier', 'bar laitier']],
  ['food.food_court', 'Food court', 'Aire de restauration', ['food court', 'food hall', 'aire de restauration', 'foire alimentaire']],

  // shop
  ['shop.supermarket', 'Supermarket', 'Supermarché', ['grocery', 'groceries', 'grocery store', 'supermarket', 'supermarkets', 'épicerie', 'épiceries', 'supermarché', 'supermarchés', "marché d'alimentation", 'alimentation', 'food store']],
  ['shop.convenience', 'Convenience store', 'Dépanneur', ['convenience', 'convenience store', 'corner store', 'variety store', 'dep', 'dépanneur', 'dépanneurs', 'dépan']],
  ['shop.mall', 'Shopping mall', 'Centre commercial', ['mall', 'malls', 'shopping centre', 'shopping center', 'shopping mall', 'plaza', 'centre commercial', 'centres commerciaux', 'galeries']],
  ['shop.department_store', 'Department store', 'Grand magasin', ['department store', 'department stores', 'grand magasin', 'grands magasins', 'magasin à rayons']],
  ['shop.clothes', 'Clothing store', 'Magasin de vêtements', ['clothes', 'clothing', 'clothing store', 'apparel', 'fashion', 'boutique', 'vêtements', 'magasin de vêtements', 'mode']],
  ['shop.shoes', 'Shoe store', 'Magasin de chaussures', ['shoes', 'shoe store', 'footwear', 'chaussures', 'magasin de chaussures']],
  ['shop.electronics', 'Electronics store', "Magasin d'électronique", ['electronics', 'electronics store', 'computer store', 'computers', 'phone store', 'mobile phones', 'électronique', "magasin d'électronique", 'informatique', 'cellulaires']],
  ['shop.hardware', 'Hardware store', 'Quincaillerie', ['hardware', 'hardware store', 'home improvement', 'diy', 'quincaillerie', 'quincailleries', 'rénovation']],
  ['shop.furniture', 'Furniture store', 'Magasin de meubles', ['furniture', 'furniture store', 'meubles', 'magasin de meubles', 'mobilier']],
  ['shop.alcohol', 'Liquor store', "Magasin d'alcool", ['liquor', 'liquor store', 'alcohol', 'beer store', 'wine store', 'wine', 'lcbo', 'bc liquor', 'saq', 'alcool', "magasin d'alcool", 'vins', 'spiritueux']],
  ['shop.cannabis', 'Cannabis store', 'Magasin de cannabis', ['cannabis', 'cannabis store', 'dispensary', 'weed', 'marijuana', 'sqdc', 'magasin de cannabis']],
  ['shop.butcher', 'Butcher', 'Boucherie', ['butcher', 'butchers', 'butcher shop', 'meat', 'boucherie', 'boucher', 'viande']],
  ['shop.florist', 'Florist', 'Fleuriste', ['florist', 'florists', 'flower shop', 'flowers', 'fleuriste', 'fleurs']],
  ['shop.books', 'Bookstore', 'Librairie', ['books', 'bookstore', 'bookshop', 'book store', 'librairie', 'librairies', 'livres']],
  ['shop.sports', 'Sporting goods store', "Magasin d'articles de sport", ['sporting goods', 'sports store', 'sports shop', 'outdoor store', 'articles de sport', 'magasin de sport', 'plein air']],
  ['shop.pet', 'Pet store', 'Animalerie', ['pet', 'pets', 'pet store', 'pet shop', 'pet supplies', 'animalerie', 'animaux']],
  ['shop.jewelry', 'Jewellery store', 'Bijouterie', ['jewelry', 'jewellery', 'jeweler', 'jeweller', 'jewelry store', 'jewellery store', 'bijouterie', 'bijoux', 'bijoutier']],
  ['shop.gift', 'Gift shop', 'Boutique de cadeaux', ['gift', 'gifts', 'gift shop', 'souvenir', 'souvenirs', 'souvenir shop', 'cadeaux', 'boutique de cadeaux', 'boutique de souvenirs']],
  ['shop.bicycle', 'Bicycle shop', 'Magasin de vélos', ['bicycle shop', 'bike shop', 'bike store', 'bicycle repair', 'vélo', 'vélos', 'magasin de vélos', 'boutique de vélos']],
  ['shop.hairdresser', 'Hairdresser', 'Coiffeur', ['hairdresser', 'hair salon', 'hairstylist', 'barber', 'barbershop', 'barber shop', 'haircut', 'coiffeur', 'coiffeuse', 'coiffure', 'salon de coiffure', 'barbier']],
  ['shop.laundry', 'Laundry', 'Buanderie', ['laundry', 'laundromat', 'laundrette', 'dry cleaner', 'dry cleaners', 'dry cleaning', 'buanderie', 'nettoyeur', 'nettoyage à sec', 'lavoir']],

  // health
  ['health.pharmacy', 'Pharmacy', 'Pharmacie', ['pharmacy', 'pharmacies', 'drugstore', 'drug store', 'chemist', 'pharmacie', 'pharmacies', 'pharmacien']],
  ['health.hospital', 'Hospital', 'Hôpital', ['hospital', 'hospitals', 'emergency room', 'er', 'hôpital', 'hôpitaux', 'urgence', 'urgences', 'centre hospitalier']],
  ['health.clinic', 'Clinic', 'Clinique', ['clinic', 'clinics', 'medical clinic', 'walk-in clinic', 'walk in clinic', 'doctor', 'doctors', 'physician', 'medical centre', 'clinique', 'cliniques', 'clinique médicale', 'médecin', 'clsc']],
  ['health.dentist', 'Dentist', 'Dentiste', ['dentist', 'dentists', 'dental', 'dental clinic', 'dentiste', 'dentistes', 'clinique dentaire']],
  ['health.veterinary', 'Veterinarian', 'Vétérinaire', ['vet', 'vets', 'veterinarian', 'veterinary', 'animal hospital', 'vétérinaire', 'vétérinaires', 'clinique vétérinaire']],
  ['health.optician', 'Optician', 'Opticien', ['optician', 'opticians', 'optometrist', 'eye doctor', 'glasses', 'eyeglasses', 'opticien', 'optométriste', 'lunetterie', 'lunettes']],

  // finance
  ['finance.bank', 'Bank', 'Banque', ['bank', 'banks', 'credit union', 'banque', 'banques', 'caisse', 'caisse populaire', 'caisse desjardins']],
  ['finance.atm', 'ATM', 'Guichet automatique', ['atm', 'atms', 'abm', 'cash machine', 'cash', 'guichet', 'guichet automatique', 'guichets automatiques', 'gab']],

  // education
  ['education.school', 'School', 'École', ['school', 'schools', 'elementary school', 'primary school', 'secondary school', 'high school', 'école', 'écoles', 'école primaire', 'école secondaire', 'polyvalente']],
  ['education.kindergarten', 'Kindergarten', 'Maternelle', ['kindergarten', 'preschool', 'pre-school', 'nursery school', 'maternelle', 'prématernelle', 'jardin d\'enfants']],
  ['education.college', 'College', 'Collège', ['college', 'colleges', 'community college', 'collège', 'collèges', 'cégep', 'cégeps']],
  ['education.university', 'University', 'Université', ['university', 'universities', 'campus', 'université', 'universités']],
  ['education.childcare', 'Childcare', 'Garderie', ['childcare', 'child care', 'daycare', 'day care', 'garderie', 'garderies', 'cpe', 'service de garde']],

  // culture
  ['culture.library', 'Library', 'Bibliothèque', ['library', 'libraries', 'public library', 'bibliothèque', 'bibliothèques', 'médiathèque']],
  ['culture.museum', 'Museum', 'Musée', ['museum', 'museums', 'musée', 'musées']],
  ['culture.gallery', 'Art gallery', "Galerie d'art", ['gallery', 'galleries', 'art gallery', 'art galleries', 'galerie', "galerie d'art", 'galeries d\'art']],
  ['culture.cinema', 'Cinema', 'Cinéma', ['cinema', 'cinemas', 'movie theatre', 'movie theater', 'movies', 'cinéma', 'cinémas']],
  ['culture.theatre', 'Theatre', 'Théâtre', ['theatre', 'theater', 'theatres', 'theaters', 'playhouse', 'théâtre', 'théâtres', 'salle de spectacle']],
  ['culture.arts_centre', 'Arts centre', 'Centre des arts', ['arts centre', 'arts center', 'art centre', 'cultural centre', 'centre des arts', 'centre culturel', 'maison de la culture']],
  ['culture.nightclub', 'Nightclub', 'Boîte de nuit', ['nightclub', 'nightclubs', 'night club', 'club', 'disco', 'dance club', 'boîte de nuit', 'discothèque']],
  ['culture.casino', 'Casino', 'Casino', ['casino', 'casinos', 'gaming', 'salon de jeux']],
  ['culture.community_centre', 'Community centre', 'Centre communautaire', ['community centre', 'community center', 'community hall', 'rec centre', 'recreation centre', 'centre communautaire', 'centre récréatif', 'centre des loisirs', 'salle communautaire']],

  // transport
  ['transport.airport', 'Airport', 'Aéroport', ['airport', 'airports', 'aerodrome', 'airfield', 'aéroport', 'aéroports', 'aérodrome']],
  ['transport.train_station', 'Train station', 'Gare', ['train station', 'train', 'trains', 'railway station', 'rail station', 'skytrain', 'subway', 'subway station', 'metro', 'metro station', 'light rail', 'gare', 'gares', 'gare ferroviaire', 'métro', 'station de métro', 'train de banlieue']],
  ['transport.fuel', 'Gas station', 'Station-service', ['gas', 'gas station', 'gas stations', 'petrol', 'petrol station', 'fuel', 'filling station', 'service station', 'station-service', 'station service', 'stations-service', 'essence', 'poste d\'essence', 'carburant', 'station d\'essence']],
  ['transport.charging_station', 'Charging station', 'Borne de recharge', ['ev charger', 'ev chargers', 'ev charging', 'ev station', 'charging station', 'charging stations', 'charger', 'electric vehicle charging', 'supercharger', 'borne de recharge', 'bornes de recharge', 'recharge', 'borne électrique', 'recharge électrique']],
  ['transport.parking', 'Parking', 'Stationnement', ['parking', 'parking lot', 'car park', 'parkade', 'parking garage', 'stationnement', 'stationnements', 'aire de stationnement', 'garage de stationnement']],
  ['transport.car_rental', 'Car rental', 'Location de voitures', ['car rental', 'car rentals', 'rental car', 'rent a car', 'car hire', 'location de voitures', 'location d\'auto', 'location de véhicules', 'location auto']],
  ['transport.car_wash', 'Car wash', 'Lave-auto', ['car wash', 'carwash', 'car washes', 'lave-auto', 'lave auto', 'lavage auto']],
  ['transport.car_repair', 'Car repair', 'Garage de réparation', ['car repair', 'auto repair', 'mechanic', 'garage', 'auto shop', 'tire shop', 'tires', 'tyres', 'oil change', 'garage automobile', 'mécanicien', 'mécanique', 'réparation automobile', 'pneus']],
  ['transport.car_dealer', 'Car dealer', 'Concessionnaire automobile', ['car dealer', 'car dealership', 'dealership', 'auto dealer', 'used cars', 'concessionnaire', 'concessionnaire automobile', 'concessionnaires']],
  ['transport.bus_station', 'Bus station', "Gare d'autobus", ['bus station', 'bus terminal', 'bus depot', 'coach station', 'bus', "gare d'autobus", 'terminus', "terminus d'autobus", 'gare routière', 'autobus']],
  ['transport.ferry_terminal', 'Ferry terminal', 'Traversier', ['ferry', 'ferries', 'ferry terminal', 'seabus', 'traversier', 'traversiers', 'gare maritime', 'quai du traversier', 'bac']],
  ['transport.taxi', 'Taxi stand', 'Poste de taxi', ['taxi', 'taxis', 'taxi stand', 'taxi rank', 'cab', 'cabs', 'poste de taxi', 'station de taxi']],
  ['transport.bicycle_rental', 'Bike share', 'Vélo en libre-service', ['bike share', 'bike sharing', 'bicycle rental', 'bike rental', 'mobi', 'bixi', 'vélo-partage', 'vélo partage', 'location de vélos', 'vélo en libre-service', 'libre-service']],

  // accommodation
  ['accommodation.hotel', 'Hotel', 'Hôtel', ['hotel', 'hotels', 'lodging', 'accommodation', 'hôtel', 'hôtels', 'hébergement']],
  ['accommodation.motel', 'Motel', 'Motel', ['motel', 'motels', 'motor inn', 'motor hotel']],
  ['accommodation.hostel', 'Hostel', 'Auberge de jeunesse', ['hostel', 'hostels', 'youth hostel', 'backpackers', 'auberge de jeunesse', 'auberges de jeunesse']],
  ['accommodation.guest_house', 'Guest house', "Gîte", ['guest house', 'guesthouse', 'bed and breakfast', 'b&b', 'bnb', 'inn', 'gîte', 'gîtes', 'gîte touristique', 'couette et café', 'auberge']],
  ['accommodation.camp_site', 'Campground', 'Camping', ['campground', 'campgrounds', 'campsite', 'camp site', 'camping', 'rv park', 'caravan park', 'terrain de camping', 'campings']],

  // tourism
  ['tourism.attraction', 'Attraction', 'Attrait touristique', ['attraction', 'attractions', 'tourist attraction', 'sightseeing', 'landmark', 'attrait', 'attraits', 'attrait touristique', 'site touristique', 'à voir']],
  ['tourism.viewpoint', 'Viewpoint', 'Belvédère', ['viewpoint', 'viewpoints', 'lookout', 'scenic view', 'scenic lookout', 'vista', 'belvédère', 'point de vue', 'panorama']],
  ['tourism.information', 'Tourist information', 'Information touristique', ['tourist information', 'visitor centre', 'visitor center', 'tourist office', 'visitor information', 'information touristique', 'bureau d\'information touristique', 'bureau touristique', 'accueil touristique']],
  ['tourism.zoo', 'Zoo', 'Zoo', ['zoo', 'zoos', 'aquarium', 'wildlife park', 'animal park', 'jardin zoologique', 'parc animalier']],
  ['tourism.theme_park', 'Theme park', "Parc d'attractions", ['theme park', 'amusement park', 'water park', 'waterpark', "parc d'attractions", 'parc thématique', 'parc aquatique']],
  ['tourism.artwork', 'Public art', "Œuvre d'art", ['artwork', 'public art', 'sculpture', 'sculptures', 'statue', 'statues', 'mural', 'murals', 'art public', "oeuvre d'art", 'murale', 'murales']],
  ['tourism.picnic_site', 'Picnic site', 'Aire de pique-nique', ['picnic', 'picnic site', 'picnic area', 'picnic spot', 'pique-nique', 'aire de pique-nique', 'halte', 'halte routière']],

  // leisure
  ['leisure.park', 'Park', 'Parc', ['park', 'parks', 'green space', 'parc', 'parcs', 'espace vert']],
  ['leisure.playground', 'Playground', 'Terrain de jeux', ['playground', 'playgrounds', 'play area', 'tot lot', 'terrain de jeux', 'aire de jeux', 'parc pour enfants', 'jeux pour enfants']],
  ['leisure.sports_centre', 'Sports centre', 'Centre sportif', ['sports centre', 'sports center', 'sports complex', 'athletic centre', 'centre sportif', 'complexe sportif', 'aréna', 'arena']],
  ['leisure.fitness_centre', 'Gym', 'Centre de conditionnement physique', ['gym', 'gyms', 'fitness', 'fitness centre', 'fitness center', 'health club', 'centre de conditionnement physique', 'salle de sport', "centre d'entraînement", 'conditionnement physique']],
  ['leisure.swimming_pool', 'Swimming pool', 'Piscine', ['swimming pool', 'pool', 'pools', 'swimming', 'aquatic centre', 'piscine', 'piscines', 'centre aquatique', 'natation']],
  ['leisure.golf_course', 'Golf course', 'Terrain de golf', ['golf', 'golf course', 'golf courses', 'golf club', 'terrain de golf', 'club de golf', 'parcours de golf']],
  ['leisure.stadium', 'Stadium', 'Stade', ['stadium', 'stadiums', 'ballpark', 'stade', 'stades', 'amphithéâtre']],
  ['leisure.ice_rink', 'Ice rink', 'Patinoire', ['ice rink', 'rink', 'rinks', 'skating rink', 'hockey rink', 'skating', 'patinoire', 'patinoires', 'patin', 'patinage']],
  ['leisure.marina', 'Marina', 'Marina', ['marina', 'marinas', 'boat launch', 'yacht club', 'port de plaisance', 'quai', 'rampe de mise à l\'eau']],

  // religion
  ['religion.place_of_worship', 'Place of worship', 'Lieu de culte', ['place of worship', 'church', 'churches', 'mosque', 'mosques', 'synagogue', 'synagogues', 'temple', 'temples', 'gurdwara', 'chapel', 'cathedral', 'lieu de culte', 'église', 'églises', 'mosquée', 'chapelle', 'cathédrale', 'basilique']],

  // government
  ['government.townhall', 'Town hall', 'Hôtel de ville', ['town hall', 'city hall', 'municipal hall', 'township office', 'hôtel de ville', 'mairie', 'bureau municipal', 'maison du citoyen']],
  ['government.police', 'Police', 'Police', ['police', 'police station', 'police department', 'rcmp', 'detachment', 'poste de police', 'commissariat', 'grc', 'sûreté du québec', 'sq']],
  ['government.fire_station', 'Fire station', 'Caserne de pompiers', ['fire station', 'fire hall', 'firehall', 'fire department', 'caserne', 'caserne de pompiers', 'pompiers', 'service incendie', "service de sécurité incendie"]],
  ['government.post_office', 'Post office', 'Bureau de poste', ['post office', 'post offices', 'postal outlet', 'canada post', 'postal', 'bureau de poste', 'comptoir postal', 'postes canada', 'poste']],
  ['government.courthouse', 'Courthouse', 'Palais de justice', ['courthouse', 'court house', 'court', 'courts', 'law courts', 'palais de justice', 'tribunal', 'cour']],
];

function entry([id, en, fr, aliases]: Row): TaxonomyEntry {
  const all = [en, fr, ...aliases].map((a) => a.toLowerCase());
  return { id, group: id.slice(0, id.indexOf('.')), aliases: [...new Set(all)], names: { en, fr } };
}

export const TAXONOMY: readonly TaxonomyEntry[] = ROWS.map(entry);

/**
 * Categories whose unnamed OSM features are kept (for nearby and places): an unnamed charging
 * station or ATM is still the answer to "the nearest one". Others need a name (or a brand).
 */
export const UNNAMED_CATEGORIES: ReadonlySet<string> = new Set([
  'transport.charging_station',
  'transport.fuel',
  'transport.parking',
  'transport.bicycle_rental',
  'transport.taxi',
  'finance.atm',
  'leisure.playground',
  'tourism.picnic_site',
  'tourism.viewpoint',
]);

type TagRule = Record<string, string>;

/** Per OSM key, value → taxonomy id. Checked in the key order of CATEGORY_KEYS. */
const TAG_RULES: Record<string, TagRule> = {
  amenity: {
    restaurant: 'food.restaurant',
    fast_food: 'food.fast_food',
    cafe: 'food.cafe',
    bar: 'food.bar',
    biergarten: 'food.bar',
    pub: 'food.pub',
    ice_cream: 'food.ice_cream',
    food_court: 'food.food_court',
    pharmacy: 'health.pharmacy',
    hospital: 'health.hospital',
    clinic: 'health.clinic',
    doctors: 'health.clinic',
    dentist: 'health.dentist',
    veterinary: 'health.veterinary',
    bank: 'finance.bank',
    atm: 'finance.atm',
    school: 'education.school',
    kindergarten: 'education.kindergarten',
    college: 'education.college',
    university: 'education.university',
    childcare: 'education.childcare',
    library: 'culture.library',
    cinema: 'culture.cinema',
    theatre: 'culture.theatre',
    arts_centre: 'culture.arts_centre',
    nightclub: 'culture.nightclub',
    casino: 'culture.casino',
    community_centre: 'culture.community_centre',
    fuel: 'transport.fuel',
    charging_station: 'transport.charging_station',
    parking: 'transport.parking',
    car_rental: 'transport.car_rental',
    car_wash: 'transport.car_wash',
    bus_station: 'transport.bus_station',
    ferry_terminal: 'transport.ferry_terminal',
    taxi: 'transport.taxi',
    bicycle_rental: 'transport.bicycle_rental',
    place_of_worship: 'religion.place_of_worship',
    townhall: 'government.townhall',
    police: 'government.police',
    fire_station: 'government.fire_station',
    post_office: 'government.post_office',
    courthouse: 'government.courthouse',
  },
  shop: {
    supermarket: 'shop.supermarket',
    grocery: 'shop.supermarket',
    greengrocer: 'shop.supermarket',
    convenience: 'shop.convenience',
    kiosk: 'shop.convenience',
    mall: 'shop.mall',
    shopping_centre: 'shop.mall',
    department_store: 'shop.department_store',
    clothes: 'shop.clothes',
    boutique: 'shop.clothes',
    fashion: 'shop.clothes',
    shoes: 'shop.shoes',
    electronics: 'shop.electronics',
    computer: 'shop.electronics',
    mobile_phone: 'shop.electronics',
    hardware: 'shop.hardware',
    doityourself: 'shop.hardware',
    furniture: 'shop.furniture',
    alcohol: 'shop.alcohol',
    wine: 'shop.alcohol',
    cannabis: 'shop.cannabis',
    butcher: 'shop.butcher',
    florist: 'shop.florist',
    books: 'shop.books',
    sports: 'shop.sports',
    outdoor: 'shop.sports',
    pet: 'shop.pet',
    jewelry: 'shop.jewelry',
    gift: 'shop.gift',
    souvenir: 'shop.gift',
    bicycle: 'shop.bicycle',
    hairdresser: 'shop.hairdresser',
    laundry: 'shop.laundry',
    dry_cleaning: 'shop.laundry',
    bakery: 'food.bakery',
    pastry: 'food.bakery',
    ice_cream: 'food.ice_cream',
    chemist: 'health.pharmacy',
    optician: 'health.optician',
    car: 'transport.car_dealer',
    car_repair: 'transport.car_repair',
    tyres: 'transport.car_repair',
  },
  healthcare: {
    pharmacy: 'health.pharmacy',
    hospital: 'health.hospital',
    clinic: 'health.clinic',
    doctor: 'health.clinic',
    dentist: 'health.dentist',
    optometrist: 'health.optician',
  },
  tourism: {
    hotel: 'accommodation.hotel',
    motel: 'accommodation.motel',
    hostel: 'accommodation.hostel',
    guest_house: 'accommodation.guest_house',
    camp_site: 'accommodation.camp_site',
    caravan_site: 'accommodation.camp_site',
    museum: 'culture.museum',
    gallery: 'culture.gallery',
    viewpoint: 'tourism.viewpoint',
    zoo: 'tourism.zoo',
    aquarium: 'tourism.zoo',
    theme_park: 'tourism.theme_park',
    artwork: 'tourism.artwork',
    picnic_site: 'tourism.picnic_site',
  },
  leisure: {
    park: 'leisure.park',
    playground: 'leisure.playground',
    sports_centre: 'leisure.sports_centre',
    fitness_centre: 'leisure.fitness_centre',
    swimming_pool: 'leisure.swimming_pool',
    water_park: 'tourism.theme_park',
    golf_course: 'leisure.golf_course',
    stadium: 'leisure.stadium',
    ice_rink: 'leisure.ice_rink',
    marina: 'leisure.marina',
  },
  railway: {
    station: 'transport.train_station',
    halt: 'transport.train_station',
  },
};

/** Keys checked first to last: the most specific description of a feature wins. */
const CATEGORY_KEYS = ['amenity', 'shop', 'healthcare', 'tourism', 'leisure', 'railway'] as const;

/** Values of tourism=information that are a staffed place rather than a board or a signpost. */
const INFORMATION_OFFICES = new Set(['office', 'visitor_centre']);

/** The taxonomy id of an OSM feature from its tags, or null when it is not a mapped POI. */
export function categoryForOsmTags(tags: Readonly<Record<string, string>>): string | null {
  for (const key of CATEGORY_KEYS) {
    const value = tags[key];
    if (value === undefined) continue;
    const id = TAG_RULES[key]![value];
    if (id) return id;
  }
  if (tags.aeroway === 'aerodrome' && (tags.iata || tags.icao)) return 'transport.airport';
  if (tags.public_transport === 'station') {
    if (tags.train === 'yes' || tags.subway === 'yes' || tags.light_rail === 'yes') return 'transport.train_station';
    if (tags.bus === 'yes') return 'transport.bus_station';
    if (tags.ferry === 'yes') return 'transport.ferry_terminal';
  }
  if (tags.tourism === 'information' && INFORMATION_OFFICES.has(tags.information ?? '')) return 'tourism.information';
  if (tags.tourism === 'attraction') return 'tourism.attraction';
  return null;
}
