/** Where the step-up enrollment modal's otpauth:// URI is, for the QR code beside it (otpauth-qr.tsx). */
const OTPAUTH = /otpauth:\/\/totp\/[^\s`<>|]+/;

/** The otpauth:// URI in a section's mrkdwn, with Slack's &amp; read back as &. */
export function otpauthIn(text: string): string | undefined {
  return OTPAUTH.exec(text)?.[0].replaceAll('&amp;', '&');
}
