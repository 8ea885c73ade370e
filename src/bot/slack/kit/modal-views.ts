/** Views shared by every modal flow: the loading view opened at once, and a notice. */
import { CALLBACK } from './slack-ids.js';
import { context, modal, section, type ModalView } from './blocks.js';
import { escapeMrkdwn } from './mrkdwn.js';

export interface LoadingViewInput {
  callbackId: string;
  title: string;
  /** What is being fetched, in plain words. */
  what: string;
  privateMetadata?: string;
}

/**
 * Opened with views.open as soon as a command or button arrives (its trigger_id lives 3 s), and
 * replaced with views.update once the exchange has answered.
 */
export function loadingView(input: LoadingViewInput): ModalView {
  return modal(
    [
      section(`:hourglass_flowing_sand: Loading ${escapeMrkdwn(input.what, 500)} from the exchange…`),
      context(['This takes a moment; the form appears here.']),
    ],
    {
      callbackId: input.callbackId,
      title: input.title,
      close: 'Close',
      ...(input.privateMetadata !== undefined ? { privateMetadata: input.privateMetadata } : {}),
    },
  );
}

/** A modal that only says something, e.g. the exchange could not be reached while loading. */
export function noticeView(title: string, text: string, tone: 'error' | 'info' = 'error'): ModalView {
  const icon = tone === 'error' ? ':warning:' : ':information_source:';
  return modal([section(`${icon} ${escapeMrkdwn(text, 2_900)}`)], {
    callbackId: CALLBACK.notice,
    title,
    close: 'Close',
  });
}
