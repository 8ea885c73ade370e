/** A button: named by its text, styled primary or danger, asking its confirm first when it has one. */
import { useState } from 'preact/hooks';
import { actionPayload, actionTs } from '../state-values.js';
import { asConfirm } from '../kit.js';
import { plainText } from '../text.js';
import { elementId, useSurface } from '../surface.js';
import { useAction } from '../use-action.js';
import { ConfirmDialog } from './confirm.js';
import type { ElementProps } from './props.js';

export function KitButton({ element, blockId, actionId }: ElementProps) {
  const surface = useSurface();
  const { run, busy } = useAction();
  const [confirming, setConfirming] = useState(false);
  const confirm = asConfirm(element.confirm);
  const press = () => {
    setConfirming(false);
    // A link button opens its URL and still tells the app, as Slack does.
    if (typeof element.url === 'string' && /^https?:/i.test(element.url))
      window.open(element.url, '_blank', 'noopener');
    void run(actionPayload(element, blockId, actionId, actionTs(Date.now())));
  };
  const style = element.style === 'primary' || element.style === 'danger' ? element.style : '';
  return (
    <>
      {/* Busy is aria-disabled, not disabled: a disabled button would drop the keyboard focus. */}
      <button
        type="button"
        class={`kit-button ${style}`}
        aria-busy={busy}
        aria-disabled={busy}
        onClick={() => !busy && (confirm ? setConfirming(true) : press())}
      >
        {plainText(element.text)}
      </button>
      {confirming && confirm && (
        <ConfirmDialog
          id={elementId(surface, blockId, actionId, 'confirm')}
          confirm={confirm}
          onConfirm={press}
          onDeny={() => setConfirming(false)}
        />
      )}
    </>
  );
}
