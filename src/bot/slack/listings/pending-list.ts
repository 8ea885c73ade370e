/** `/desk pending [page]`: the requests waiting for approvals, one line each, 40 to a page. */
import { requestLine, type HomeRequest } from '../home/home-view.js';
import { context, message, sandboxBanner, section, type KnownBlock, type MessagePayload } from '../kit/blocks.js';
import { BLOCK } from '../kit/slack-ids.js';
import { linesWithMore } from '../kit/cut-lists.js';

/** Lines on one page: 40 request lines pack into a few sections, far under a message's 50 blocks. */
export const PENDING_PAGE_SIZE = 40;

/** `page` counts from 1; a page past the end says how many pages there are. */
export function pendingList(requests: readonly HomeRequest[], sandbox: boolean, page = 1): MessagePayload {
  const blocks: KnownBlock[] = [];
  if (sandbox) blocks.push(sandboxBanner(BLOCK.sandboxBanner));
  if (requests.length === 0) {
    blocks.push(section('Nothing waits for approval.'));
    return message('Nothing waits for approval.', blocks);
  }
  const pages = Math.ceil(requests.length / PENDING_PAGE_SIZE);
  if (page > pages) {
    const text = `${requests.length} requests wait for approval, on ${pages} ${pages === 1 ? 'page' : 'pages'}: \`/desk pending\` shows the first.`;
    blocks.push(section(`There is no page ${page}. ${text}`));
    return message(`There is no page ${page}. ${text}`, blocks);
  }
  const first = (page - 1) * PENDING_PAGE_SIZE;
  const lines = requests.slice(first).map(requestLine);
  const range =
    pages > 1 ? ` · ${first + 1}–${first + Math.min(lines.length, PENDING_PAGE_SIZE)}, page ${page} of ${pages}` : '';
  blocks.push(section(`*Waiting for approval (${requests.length})*${range}`));
  blocks.push(
    ...linesWithMore(
      lines,
      PENDING_PAGE_SIZE,
      `\`/desk pending ${page + 1}\` shows the next ${Math.min(lines.length - PENDING_PAGE_SIZE, PENDING_PAGE_SIZE)}.`,
    ),
  );
  blocks.push(context(['`/desk status <id>` shows one request in full.']));
  return message(`${requests.length} requests wait for approval${range}`, blocks);
}
