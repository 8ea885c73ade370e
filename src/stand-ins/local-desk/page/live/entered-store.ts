// What a person entered, per surface, outliving components: a pushed or updated modal keeps entries of the
// same block_id and action_id, as Slack does.
import { useEffect, useState } from 'preact/hooks';
import { stateKey, type ElementState, type Entered } from '../blocks/state-values.js';

export class EnteredStore {
  private readonly surfaces = new Map<string, Map<string, ElementState>>();
  private readonly listeners = new Set<() => void>();

  get(surface: string): Entered {
    return this.surfaces.get(surface) ?? new Map();
  }

  set(surface: string, blockId: string, actionId: string, state: ElementState): void {
    const next = new Map(this.get(surface));
    next.set(stateKey(blockId, actionId), state);
    this.surfaces.set(surface, next);
    for (const l of this.listeners) l();
  }

  /** A new person: nothing of the previous one's entries stays. */
  clear(): void {
    this.surfaces.clear();
    for (const l of this.listeners) l();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export function useEntered(store: EnteredStore, surface: string): Entered {
  const [entered, setEntered] = useState(() => store.get(surface));
  useEffect(() => {
    setEntered(store.get(surface));
    return store.subscribe(() => setEntered(store.get(surface)));
  }, [store, surface]);
  return entered;
}
