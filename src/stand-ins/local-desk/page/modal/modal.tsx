// The top modal of the person's stack with the view's own button words. Submitting checks what Slack's
// client checks first; the bot's field errors come back and show under their inputs.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { LocalDeskModal } from '../../protocol.js';
import { send } from '../live/api.js';
import { Blocks } from '../blocks/blocks.js';
import { clientErrors, stateValues } from '../blocks/state-values.js';
import { plainText } from '../blocks/text.js';
import { Avatar } from '../shell/avatar.js';
import { useLocalDesk } from '../shell/local-desk.js';
import { SurfaceHost } from '../shell/surface-host.js';

export function ModalHost() {
  const { snapshot } = useLocalDesk();
  const top = snapshot.modals[snapshot.modals.length - 1];
  if (!top) return null;
  return <ModalView key={top.id} modal={top} stacked={snapshot.modals.length > 1} />;
}

function ModalView({ modal, stacked }: { modal: LocalDeskModal; stacked: boolean }) {
  const desk = useLocalDesk();
  const view = modal.view;
  const surfaceKey = `view-${modal.id}`;
  const [answered, setAnswered] = useState<{ hash: string; errors: Record<string, string> }>();
  const [local, setLocal] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const dialog = useRef<HTMLDivElement>(null);
  const titleId = `${surfaceKey}-title`.replace(/[^A-Za-z0-9_-]/g, '_');

  // Escape closes the modal wherever the focus is (a confirm or an open list takes it first).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      e.preventDefault();
      void close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  useEffect(() => {
    const first = dialog.current?.querySelector<HTMLElement>(
      '.modal-body input, .modal-body select, .modal-body textarea, .modal-body button',
    );
    (first ?? dialog.current)?.focus();
  }, []);

  const errors = { ...(modal.errors ?? {}), ...(answered?.hash === modal.hash ? answered.errors : {}), ...local };

  const submit = async () => {
    const refused = clientErrors(view.blocks, desk.store.get(surfaceKey));
    setLocal(refused);
    if (Object.keys(refused).length > 0) return;
    setBusy(true);
    setFailure(undefined);
    const ack = await send('submit', {
      as: desk.me.id,
      viewId: modal.id,
      values: stateValues(view.blocks, desk.store.get(surfaceKey)),
    });
    setBusy(false);
    if (!ack.ok) setFailure(ack.error);
    else if (ack.errors) setAnswered({ hash: modal.hash, errors: ack.errors });
  };

  const close = async () => {
    setBusy(true);
    const ack = await send('close', { as: desk.me.id, viewId: modal.id });
    setBusy(false);
    if (!ack.ok) setFailure(ack.error);
  };

  const title = plainText(view.title) || 'Untitled';
  return (
    <div class="overlay">
      <div ref={dialog} class="modal" role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1}>
        <header class="modal-header">
          {stacked && (
            <button type="button" class="icon-button" aria-label="Back" onClick={() => void close()}>
              ‹
            </button>
          )}
          <Avatar id="bot" initials={desk.bot.initials} size={24} bot />
          <h2 id={titleId}>{title}</h2>
        </header>
        <div class="modal-body">
          {view.type !== 'modal' && (
            <div class="undrawn">Not drawn here: a {String(view.type)} view shown as a modal</div>
          )}
          <SurfaceHost
            surfaceKey={surfaceKey}
            container={{ type: 'view', viewId: modal.id }}
            blocks={view.blocks}
            errors={errors}
            edited={(blockId) => setLocal(({ [blockId]: _gone, ...rest }) => rest)}
          >
            <Blocks blocks={view.blocks ?? []} />
          </SurfaceHost>
        </div>
        <footer class="modal-footer">
          {failure && (
            <div class="action-error" role="alert">
              {failure}
            </div>
          )}
          <button type="button" class="kit-button" disabled={busy} onClick={() => void close()}>
            {plainText(view.close) || 'Cancel'}
          </button>
          {view.submit !== undefined && (
            <button
              type="button"
              class="kit-button primary"
              disabled={busy}
              aria-busy={busy}
              onClick={() => void submit()}
            >
              {plainText(view.submit)}
            </button>
          )}
        </footer>
      </div>
    </div>
  );
}
