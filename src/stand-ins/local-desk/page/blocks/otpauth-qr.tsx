/**
 * The QR code of an otpauth:// URI in a section (the step-up enrollment modal), as a phone's
 * authenticator app scans it from the screen. Real Slack shows the link and secret only; the local
 * desk adds this so enrolling takes a scan. Drawn from uqr's module matrix as SVG rectangles: no
 * HTML string is injected into the page.
 */
import { encode } from 'uqr';

export function OtpauthQr({ uri }: { uri: string }) {
  const { size, data } = encode(uri, { ecc: 'M', border: 2 });
  const dark: preact.JSX.Element[] = [];
  data.forEach((row, y) =>
    row.forEach((on, x) => {
      if (on) dark.push(<rect key={`${x},${y}`} x={x} y={y} width={1} height={1} />);
    }),
  );
  return (
    <svg
      class="otpauth-qr"
      role="img"
      aria-label="QR code for your authenticator app"
      viewBox={`0 0 ${size} ${size}`}
      width={size * 5}
      height={size * 5}
      shape-rendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <g fill="#000">{dark}</g>
    </svg>
  );
}
