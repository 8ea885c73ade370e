/** What the page cannot draw is shown as such, never dropped: a block or element type it does not know. */
export function Undrawn({ type }: { type: string }) {
  return (
    <div class="undrawn" role="note">
      Not drawn here: {type}
    </div>
  );
}
