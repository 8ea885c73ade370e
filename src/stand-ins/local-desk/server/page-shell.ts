/** The page's HTML: an empty #app the bundle renders into, its stylesheet and its script. */
import { ROUTES } from '../protocol.js';

export const PAGE_TITLE = 'Local desk · desk-bot';

export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${PAGE_TITLE}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ROUTES.styles}">
<script type="module" src="${ROUTES.bundle}"></script>
</head>
<body>
<div id="app"></div>
<noscript>The local desk needs JavaScript.</noscript>
</body>
</html>
`;

/** Only this server's script and styles run, nothing framed or posted elsewhere; inline styles allowed for the view library. */
export const PAGE_SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;
