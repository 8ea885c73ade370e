/** `/desk pending`: the requests waiting for approvals, one line each, for one person. */
import { requestLine, type HomeRequest } from '../home/home-view.js';
import { context, message, sandboxBanner, section, type KnownBlock, type MessagePayload } from '../kit/blocks.js';
import { BLOCK } from '../kit/slack-ids.js';

const MAX_LINES = 40;

export function pendingList(requests: readonly HomeRequest[], sandbox: boolean): MessagePayload {
  const blocks: KnownBlock[] = [];
  if (sandbox) blocks.push(sandboxBanner(BLOCK.sandboxBanner));
  if (requests.length === 0) {
    blocks.push(section('Nothing waits for approval.'));
    return message('Nothing waits for approval.', blocks);
  }
  blocks.push(section(`*Waiting for approval (${requests.length})*\n${requests.slice(0, MAX_LINES).map(requestLine).join('\n')}`));
  if (requests.length > MAX_LINES) blocks.push(context([`${requests.length - MAX_LINES} more in the approval channel.`]));
  blocks.push(context(['`/desk status <id>` shows one request in full.']));
  return message(`${requests.length} requests wait for approval`, blocks);
}
