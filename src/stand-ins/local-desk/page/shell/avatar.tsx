/** Initials on a colour picked from the id, as a stand-in for a profile picture. */
const COLOURS = ['#e8912d', '#2bac76', '#1d9bd1', '#e01e5a', '#9e5fd1', '#36c5f0', '#ecb22e', '#4a154b'];

export function Avatar({
  id,
  initials,
  size = 36,
  bot = false,
}: {
  id: string;
  initials: string;
  size?: number;
  bot?: boolean;
}) {
  let h = 0;
  for (const ch of id) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  const background = bot ? '#4a154b' : COLOURS[h % COLOURS.length];
  return (
    <span
      class="avatar"
      aria-hidden="true"
      style={{ width: `${size}px`, height: `${size}px`, background, fontSize: `${Math.round(size * 0.4)}px` }}
    >
      {initials}
    </span>
  );
}
