// One beat of the story: a person acts (a signed request) or the exchange moves, the demo waits for its sign
// and writes what everyone saw; a sign that does not come stops the story with a StepTimeout naming it.
import type { FakeSlackCall } from '../fake-slack/fake-slack-api.js';
import type { SlackResponse } from '../fake-slack/slack-requests.js';
import type { Person } from './people.js';
import type { FilledValues } from './render.js';
import { Screens } from './screens.js';
import type { Stage } from './stage.js';
import type { Transcript } from './transcript.js';

export class StepTimeout extends Error {
  override name = 'StepTimeout';
}

/** Where the person's action came from, for building the request. */
export interface Cue {
  /** A response_url only this person's answers go to. */
  responseUrl: string;
}

export interface Beat {
  /** Narration: "Ana clicks Approve". */
  does: string;
  /** The sign the beat took effect, and its name for the timeout message. */
  until?: { call: (c: FakeSlackCall) => boolean; what: string };
  /** What the person has entered in the modal shown afterwards. */
  filled?: FilledValues;
  /** The modal acted on (a submission's answer replaces it). */
  viewId?: string;
  /** Write what was seen (default true). */
  show?: boolean;
  timeoutMs?: number;
}

export interface BeatResult {
  ack: SlackResponse | undefined;
  calls: FakeSlackCall[];
  /** The call that matched `until`. */
  sign: FakeSlackCall | undefined;
}

export class Scene {
  readonly screens: Screens;
  #responses = 0;

  constructor(
    readonly stage: Stage,
    readonly transcript: Transcript,
    screens: Screens,
    readonly defaultTimeoutMs = 10_000,
  ) {
    this.screens = screens;
  }

  /** `who` does something in Slack: `send` posts the signed request; its answer must be 200. */
  async act(who: Person, beat: Beat, send: (cue: Cue) => Promise<SlackResponse>): Promise<BeatResult> {
    this.transcript.narrate(beat.does);
    const cue = { responseUrl: this.stage.slack.responseUrl(Screens.responseId(who.id, ++this.#responses)) };
    return this.#play(who, beat, async () => {
      const res = await send(cue);
      if (res.status !== 200) throw new Error(`the bot answered ${res.status} to "${beat.does}"`);
      return res;
    });
  }

  /** Something happens outside Slack (the exchange's clock moves, a deposit arrives). */
  async happen(beat: Beat, what: () => void | Promise<void>): Promise<BeatResult> {
    this.transcript.narrate(beat.does);
    return this.#play(undefined, beat, async () => {
      await what();
      return undefined;
    });
  }

  async #play(who: Person | undefined, beat: Beat, run: () => Promise<SlackResponse | undefined>): Promise<BeatResult> {
    const { slack } = this.stage;
    const mark = slack.calls.length;
    const ack = await run();
    const timeoutMs = beat.timeoutMs ?? this.defaultTimeoutMs;
    let sign: FakeSlackCall | undefined;
    if (beat.until) {
      try {
        sign = await slack.waitFor(beat.until.call, { after: mark, timeoutMs });
      } catch {
        throw new StepTimeout(`step "${beat.does}": ${beat.until.what} did not appear within ${timeoutMs / 1000} s`);
      }
    }
    await this.stage.settle();
    const calls = slack.calls.filter((c) => c.seq > mark);
    // Always read (the screens remember messages to show later updates as changes), not always written.
    const seen = this.screens.seen({ userId: who?.id ?? '' }, ack, calls, {
      ...(beat.viewId ? { viewId: beat.viewId } : {}),
      ...(beat.filled ? { filled: beat.filled } : {}),
    });
    if (beat.show ?? true) for (const s of seen) this.transcript.shows(s.heading, s.body);
    return { ack, calls, sign };
  }
}
