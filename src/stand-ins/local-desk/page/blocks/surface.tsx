// A surface (message, modal, App Home) says where actions go and keeps what the person entered; blocks
// below read it from context.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Ack, Answers } from '../../protocol.js';
import type { ElementState, Entered } from './state-values.js';

export interface Surface {
  /** Unique on the page: the prefix of the ids that tie labels to inputs. */
  key: string;
  entered: Entered;
  enter(blockId: string, actionId: string, state: ElementState): void;
  /** Send a block_actions action (the owner adds the surface's state.values). */
  act(action: Record<string, unknown>): Promise<Ack>;
  /** Ask the bot for an external select's options; only a modal can. */
  suggest?(blockId: string, actionId: string, value: string): Promise<Answers['suggest']>;
  /** Field errors by block_id, as Slack shows them under the input. */
  errors: Readonly<Record<string, string>>;
  /** An input changed: its error, if the page raised it, goes. */
  edited?(blockId: string): void;
}

export const SurfaceContext = createContext<Surface | null>(null);

export function useSurface(): Surface {
  const s = useContext(SurfaceContext);
  if (!s) throw new Error('Block Kit drawn outside a surface');
  return s;
}

/** An id for an element of this surface (labels, descriptions, listboxes). */
export function elementId(surface: Surface, ...parts: string[]): string {
  return `${surface.key}-${parts.join('-')}`.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** Where one block's action failures are shown: under the block, near the control pressed. */
export const BlockErrorContext = createContext<(error: string | undefined) => void>(() => undefined);

export function useBlockError(): (error: string | undefined) => void {
  return useContext(BlockErrorContext);
}
