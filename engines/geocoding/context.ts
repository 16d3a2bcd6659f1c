import { CandidateCollector } from './candidates.ts';
import { CategoryResolver } from './categories.ts';
import type { IndexView } from './index/view.ts';

/** What every query function needs: the loaded index and reusable query state. */
export class EngineContext {
  readonly collector: CandidateCollector;
  readonly categories: CategoryResolver;
  constructor(readonly view: IndexView) {
    this.collector = new CandidateCollector(view);
    this.categories = new CategoryResolver(view.meta.taxonomy, view.meta.categories);
  }
}
