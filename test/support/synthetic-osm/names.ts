/**
 * Names: streets from the geocoding corpus's namer (real Ottawa street names and Canada Post
 * types, French forms in Quebec), their French forms for bilingual Ontario, and town, river,
 * lake and park names built from the same word list.
 */
import { seededRandom, type Random } from '../../../lib/seeded-random.ts';
import { loadStreetNamer, type StreetName, type StreetNamer } from '../geocoding/street-names.ts';

export type Province = 'ON' | 'QC';

/** French street types for English ones (name:fr of bilingual Ontario streets). */
const FRENCH_OF: Record<string, string> = {
  Street: 'Rue', Avenue: 'Avenue', Road: 'Chemin', Drive: 'Promenade', Crescent: 'Croissant', Court: 'Cour', Place: 'Place',
  Way: 'Voie', Lane: 'Allée', Boulevard: 'Boulevard', Circle: 'Cercle', Trail: 'Sentier', Terrace: 'Terrasse', Gate: 'Porte',
  Heights: 'Côte', Park: 'Parc', Line: 'Ligne', Highway: 'Route', Parkway: 'Promenade', Square: 'Place',
};
const FRENCH_DIRECTION: Record<string, string> = { North: 'Nord', South: 'Sud', East: 'Est', West: 'Ouest' };

const TOWN_SUFFIXES = ['ville', 'ton', 'field', ' Falls', ' Mills', ' Corners', ' Junction', 'bury', ' Bridge', ' Station', ' Landing', 'ford'];
const TOWN_PREFIXES = ['Port ', 'New ', 'North ', 'South ', 'East ', 'West ', 'Mount ', 'Fort '];
const SAINTS = ['Jean', 'Pierre', 'Joseph', 'Michel', 'Louis', 'Jacques', 'Paul', 'André', 'Étienne', 'Lambert', 'Rémi', 'Hubert',
  'Basile', 'Zotique', 'Eustache', 'Jérôme', 'Hyacinthe', 'Césaire', 'Damase', 'Gabriel', 'Hippolyte', 'Alphonse'];
const SAINTES = ['Anne', 'Marie', 'Julie', 'Thérèse', 'Catherine', 'Adèle', 'Sophie', 'Agathe', 'Martine', 'Claire', 'Brigide'];
const FRENCH_TAILS = ['-des-Monts', '-de-la-Rivière', '-du-Lac', '-sur-Richelieu', '-de-Bellechasse', '-des-Bois', '-de-Wendover', ''];

export class Names {
  private constructor(private readonly streets: StreetNamer, private readonly words: readonly string[]) {}

  static async load(): Promise<Names> {
    const streets = await loadStreetNamer();
    // The namer's word list, reached through its own draws: a fixed stream of plain names.
    const words: string[] = [];
    const seen = new Set<string>();
    const draw = seededRandom(12_345);
    for (let i = 0; i < 4000; i++) {
      const { name } = streets.next(draw, 'ON', new Set());
      if (/^\p{Lu}[\p{L}']+$/u.test(name) && name.length <= 11 && !seen.has(name)) {
        seen.add(name);
        words.push(name);
      }
    }
    return new Names(streets, words);
  }

  street(random: Random, province: Province, used: Set<string>): StreetName {
    return this.streets.next(random, province, used);
  }

  /** "Rue Bank" for "Bank Street"; null for types without a usual French form. */
  frenchOf(street: StreetName): string | null {
    const rest = street.label.slice(street.name.length + 1).split(' ');
    const type = FRENCH_OF[rest[0] ?? ''];
    if (!type) return null;
    const direction = rest[1] ? FRENCH_DIRECTION[rest[1]] : undefined;
    return `${type} ${street.name}${direction ? ` ${direction}` : ''}`;
  }

  word(random: Random): string {
    return random.pick(this.words);
  }

  town(random: Random, province: Province): string {
    if (province === 'QC') {
      if (random.chance(0.55)) {
        const saint = random.chance(0.7) ? `Saint-${random.pick(SAINTS)}` : `Sainte-${random.pick(SAINTES)}`;
        return `${saint}${random.pick(FRENCH_TAILS)}`;
      }
      return random.chance(0.5) ? `Lac-${this.word(random)}` : `${this.word(random)}ville`;
    }
    const word = this.word(random);
    if (random.chance(0.15)) return `${random.pick(TOWN_PREFIXES)}${word}`;
    return random.chance(0.7) ? `${word}${random.pick(TOWN_SUFFIXES)}` : word;
  }

  water(random: Random, province: Province, kind: 'lake' | 'river' | 'creek'): string {
    const word = this.word(random);
    if (province === 'QC') return `${kind === 'lake' ? 'Lac' : kind === 'river' ? 'Rivière' : 'Ruisseau'} ${word}`;
    return `${word} ${kind === 'lake' ? 'Lake' : kind === 'river' ? 'River' : 'Creek'}`;
  }

  park(random: Random, province: Province): string {
    const word = this.word(random);
    return province === 'QC' ? `Parc ${word}` : `${word} Park`;
  }
}
