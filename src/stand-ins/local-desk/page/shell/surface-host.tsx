// Gives the blocks below a surface: where actions go, its state.values and what the person entered.
import type { ComponentChildren } from 'preact';
import type { ActionContainer } from '../../protocol.js';
import { send } from '../live/api.js';
import { useEntered } from '../live/entered-store.js';
import { stateValues } from '../blocks/state-values.js';
import { SurfaceContext, type Surface } from '../blocks/surface.js';
import { useLocalDesk } from './local-desk.js';

export interface SurfaceHostProps {
  /** Whose entries these are (a message drawn twice, in its channel and its thread, shares them). */
  surfaceKey: string;
  /** Prefix of the DOM ids, unique on the page; defaults to surfaceKey. */
  idPrefix?: string;
  container: ActionContainer;
  blocks: unknown;
  errors?: Readonly<Record<string, string>>;
  edited?: (blockId: string) => void;
  children: ComponentChildren;
}

export function SurfaceHost({ surfaceKey, idPrefix, container, blocks, errors, edited, children }: SurfaceHostProps) {
  const desk = useLocalDesk();
  const entered = useEntered(desk.store, surfaceKey);
  const as = desk.me.id;
  const surface: Surface = {
    key: idPrefix ?? surfaceKey,
    entered,
    errors: errors ?? {},
    ...(edited ? { edited } : {}),
    enter: (blockId, actionId, state) => desk.store.set(surfaceKey, blockId, actionId, state),
    // Read the store, not `entered`: an element enters and acts in the same tick.
    act: (action) => send('action', { as, container, action, values: stateValues(blocks, desk.store.get(surfaceKey)) }),
    ...(container.type === 'view'
      ? {
          suggest: (blockId: string, actionId: string, value: string) =>
            send('suggest', { as, viewId: container.viewId, blockId, actionId, value }),
        }
      : {}),
  };
  return <SurfaceContext.Provider value={surface}>{children}</SurfaceContext.Provider>;
}
