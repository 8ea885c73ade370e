/** `/desk pending`: the requests waiting for approvals, one line each, for one person. */
import { requestLine, type HomeRequest } from '../home/home-view.js';
import { context, message, sandboxBanner, section, type KnownBlock, type MessagePayload } from '../kit/blocks.js';
import { BLOCK } from '../kit/slack-ids.js';
import { linesWithMore } from '../kit/cut-lists.js';

const MAX_LINES = 40;

export function pendingList(requests: readonly HomeRequest[], sandbox: boolean): MessagePayload {
  const blocks: KnownBlock[] = [];
  if (sandbox) blocks.push(sandboxBanner(BLOCK.sandboxBanner));
  if (requests.length === 0) {
    blocks.push(section('Nothing waits for approval.'));
    return message('Nothing waits for approval.', blocks);
  }
  blocks.push(section(`*Waiting for approval (${requests.length})*`));
  blocks.push(...linesWithMore(requests.map(requestLine), MAX_LINES, 'each has its message in the approval channel, and App Home lists those waiting for you.'));
  blocks.push(context(['`/desk status <id>` shows one request in full.']));
  return message(`${requests.length} requests wait for approval`, blocks);
}
