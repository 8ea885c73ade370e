// How long Slack waited for our ack (it gives up after 3 s): HTTP, arrival to response of signed
// requests; Socket Mode, envelope arrival to ack. The Slack app measures both.
import { Histogram, type Registry } from 'prom-client';

const ACK_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 3];

/** Returns the observer the Slack app calls with each ack's latency in seconds. */
export function slackAckLatency(registry: Registry): (seconds: number) => void {
  const histogram = new Histogram({
    name: 'desk_slack_ack_duration_seconds',
    help: 'Time from a Slack request (HTTP) or envelope (Socket Mode) arriving until its acknowledgement was sent.',
    buckets: ACK_BUCKETS,
    registers: [registry],
  });
  return (seconds) => histogram.observe(seconds);
}
