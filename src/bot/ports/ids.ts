/** Fresh identifiers, injected so tests get predictable ones. */
export interface Ids {
  /** A random UUID: idempotency keys (client_order_id, request_id). */
  uuid(): string;
  /** A short, human-typable request id such as `R7K2QX`. */
  requestId(): string;
}
