/** Move a price on the sandbox, to watch a re-quote within or beyond a trade's limit. */
import { useState } from 'preact/hooks';
import type { SandboxState } from '../../protocol.js';
import { sandboxOp } from '../live/api.js';
import { DECIMAL, Field, OpResult, PanelSection, useOp } from './panel-parts.js';

export function Price({ state, refresh }: { state: SandboxState; refresh: () => Promise<void> }) {
  const op = useOp(refresh);
  const [symbol, setSymbol] = useState(state.prices[0]?.symbol ?? '');
  const [price, setPrice] = useState('');
  const current = state.prices.find((p) => p.symbol === symbol)?.price;
  const valid = symbol !== '' && DECIMAL.test(price);
  return (
    <PanelSection title="Move a price">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) void op.run(() => sandboxOp('price', { symbol, price }), `${symbol} is now ${price}.`);
        }}
      >
        <Field id="sandbox-price-of" label="Price of">
          <select id="sandbox-price-of" value={symbol} onChange={(e) => setSymbol(e.currentTarget.value)}>
            {state.prices.map((p) => (
              <option key={p.symbol} value={p.symbol}>
                {p.symbol} (now {p.price})
              </option>
            ))}
          </select>
        </Field>
        <Field id="sandbox-new-price" label="New price">
          <input
            id="sandbox-new-price"
            type="text"
            inputMode="decimal"
            placeholder={current ?? 'e.g. 65000'}
            value={price}
            onInput={(e) => setPrice(e.currentTarget.value.trim())}
          />
        </Field>
        <button type="submit" class="kit-button primary" disabled={!valid || op.busy}>
          Set price
        </button>
      </form>
      <OpResult result={op.result} />
    </PanelSection>
  );
}
