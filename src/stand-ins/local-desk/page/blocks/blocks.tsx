// The one Block Kit renderer: each block by type, an action failure under its block, and anything the page
// cannot draw shown as "Not drawn here", never dropped.
import type { FunctionComponent } from 'preact';
import { useState } from 'preact/hooks';
import { isRecord, type KitBlock } from './kit.js';
import { blockIdOf } from './state-values.js';
import { BlockErrorContext } from './surface.js';
import { ActionsBlock } from './actions.js';
import { ContextBlock } from './context.js';
import { DividerBlock } from './divider.js';
import { HeaderBlock } from './header.js';
import { ImageBlock } from './image.js';
import { InputBlock } from './input.js';
import { SectionBlock } from './section.js';
import { Undrawn } from './undrawn.js';
import type { BlockProps } from './props.js';

const DRAW: Record<string, FunctionComponent<BlockProps>> = {
  header: HeaderBlock,
  section: SectionBlock,
  context: ContextBlock,
  divider: DividerBlock,
  actions: ActionsBlock,
  image: ImageBlock,
  input: InputBlock,
};

export function Blocks({ blocks }: { blocks: unknown }) {
  if (!Array.isArray(blocks)) return <Undrawn type="blocks that are not a list" />;
  return (
    <div class="blocks">
      {blocks.map((raw, i) => {
        if (!isRecord(raw) || typeof raw.type !== 'string')
          return <Undrawn key={`bad-${i}`} type="a block without a type" />;
        const block = raw as KitBlock;
        const blockId = blockIdOf(block, i);
        return <Block key={`${block.type}:${blockId}`} block={block} blockId={blockId} />;
      })}
    </div>
  );
}

function Block({ block, blockId }: BlockProps) {
  const [error, setError] = useState<string>();
  const Draw = DRAW[block.type];
  return (
    <BlockErrorContext.Provider value={setError}>
      {Draw ? <Draw block={block} blockId={blockId} /> : <Undrawn type={block.type} />}
      {error && (
        <div class="action-error" role="alert">
          {error}
        </div>
      )}
    </BlockErrorContext.Provider>
  );
}
