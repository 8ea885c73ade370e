/** What the bot sent that the server could not place: listed, never dropped. */
import { useLocalDesk } from './local-desk.js';

export function UndrawnCalls() {
  const { snapshot } = useLocalDesk();
  if (snapshot.undrawn.length === 0) return null;
  return (
    <details class="undrawn-calls" open>
      <summary>Not drawn here: {snapshot.undrawn.length} call(s) from the bot this page cannot place</summary>
      <ul>
        {snapshot.undrawn.map((u, i) => (
          <li key={i}>
            <code>{u.method}</code> {u.summary}
          </li>
        ))}
      </ul>
    </details>
  );
}
