/** An overflow menu: a "more" button opening a menu of its options; choosing one sends it (or opens its URL). */
import { useState } from 'preact/hooks';
import { asConfirm, asOptions, type KitOption } from '../kit.js';
import { actionPayload, actionTs } from '../state-values.js';
import { plainText } from '../text.js';
import { elementId, useSurface } from '../surface.js';
import { useAction } from '../use-action.js';
import { ConfirmDialog } from './confirm.js';
import type { ElementProps } from './props.js';

export function Overflow({ element, blockId, actionId }: ElementProps) {
  const surface = useSurface();
  const { run, busy } = useAction();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState<KitOption>();
  const confirm = asConfirm(element.confirm);
  const menuId = elementId(surface, blockId, actionId, 'menu');
  const send = (o: KitOption) => {
    setPending(undefined);
    if (o.url && /^https?:/i.test(o.url)) window.open(o.url, '_blank', 'noopener');
    void run(actionPayload(element, blockId, actionId, actionTs(Date.now()), { type: 'overflow', selected_option: o }));
  };
  const pick = (o: KitOption) => {
    setOpen(false);
    if (confirm) setPending(o);
    else send(o);
  };
  return (
    <div class="kit-overflow">
      <button
        type="button"
        class="kit-button overflow-button"
        aria-label="More actions"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        aria-disabled={busy}
        onClick={() => !busy && setOpen(!open)}
      >
        ⋯
      </button>
      {open && (
        <div
          id={menuId}
          role="menu"
          class="overflow-menu"
          onKeyDown={(e) => {
            if (e.key !== 'Escape') return;
            e.stopPropagation();
            setOpen(false);
          }}
        >
          {asOptions(element.options).map((o, i) => (
            <button type="button" role="menuitem" key={o.value ?? i} onClick={() => pick(o)}>
              {plainText(o.text)}
            </button>
          ))}
        </div>
      )}
      {pending && confirm && (
        <ConfirmDialog
          id={elementId(surface, blockId, actionId, 'confirm')}
          confirm={confirm}
          onConfirm={() => send(pending)}
          onDeny={() => setPending(undefined)}
        />
      )}
    </div>
  );
}
