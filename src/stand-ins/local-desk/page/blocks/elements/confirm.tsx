/** A confirm object as Slack shows it: an alert dialog named by its title, with its deny and confirm buttons. */
import { useEffect, useRef } from 'preact/hooks';
import { KitText, plainText } from '../text.js';
import type { Confirm } from '../kit.js';

/** `id`: unique on the page, for the title and text the dialog is named and described by. */
export function ConfirmDialog({
  id,
  confirm,
  onConfirm,
  onDeny,
}: {
  id: string;
  confirm: Confirm;
  onConfirm: () => void;
  onDeny: () => void;
}) {
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => yes.current?.focus(), []);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.stopPropagation();
    onDeny();
  };
  return (
    <div class="overlay confirm-overlay" onKeyDown={onKeyDown}>
      <div
        class="confirm"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-text`}
      >
        <h2 id={`${id}-title`}>{plainText(confirm.title) || 'Are you sure?'}</h2>
        <div id={`${id}-text`} class="confirm-text">
          <KitText text={confirm.text} />
        </div>
        <div class="confirm-buttons">
          <button type="button" class="kit-button" onClick={onDeny}>
            {plainText(confirm.deny) || 'Cancel'}
          </button>
          <button
            type="button"
            ref={yes}
            class={`kit-button ${confirm.style === 'danger' ? 'danger' : 'primary'}`}
            onClick={onConfirm}
          >
            {plainText(confirm.confirm) || 'Yes'}
          </button>
        </div>
      </div>
    </div>
  );
}
