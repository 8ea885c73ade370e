import type { KitBlock } from './kit.js';

export interface BlockProps {
  block: KitBlock;
  /** The bot's block_id, or the one the page made up for it. */
  blockId: string;
}
