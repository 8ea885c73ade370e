// What the effects report back to `decide`: raw facts as the exchange gave them, not judged or worded.
import type { ExchangeError, ExchangeErrorKind, ExchangeRefusal } from '../../ports/exchange-error.js';
import type {
  CurrencyEntry,
  FiatTerms,
  RemoteView,
  SavedAddress,
  SavedBankAccount,
} from '../../ports/exchange-port.js';

/** An exchange error, as decide reads it: what kind, the port's reading of the refusal, and the words. */
export interface ExchangeFailure {
  kind: ExchangeErrorKind;
  refusal: ExchangeRefusal | undefined;
  status: number | undefined;
  /** The exchange may or may not have acted (timeout, dropped connection, 5xx). */
  outcomeUnknown: boolean;
  /** The sentence for people (the exchange's own words where it gave any). */
  message: string;
  /** The exchange's messages, joined; '' when it gave none. */
  exchangeMessages: string;
}

export function failureOf(err: ExchangeError): ExchangeFailure {
  return {
    kind: err.kind,
    refusal: err.refusal,
    status: err.status,
    outcomeUnknown: err.outcomeUnknown,
    message: err.userMessage,
    exchangeMessages: err.messages.join('; '),
  };
}

/** What the exchange answered to a money-moving call: the one answer type. */
export type Answer =
  | { kind: 'submitted'; exchangeId: string; view: RemoteView | undefined }
  /** A bank account removal is done on its 204. */
  | { kind: 'completed' }
  | { kind: 'error'; failure: ExchangeFailure };

/** What the exchange shows now of what a request's execution depends on, read just before the money moves. */
export type CheckFacts =
  | {
      kind: 'crypto_withdrawal';
      entry: CurrencyEntry | undefined;
      address: SavedAddress | undefined;
      available: string;
    }
  | { kind: 'fiat_withdrawal'; terms: FiatTerms | undefined; account: SavedBankAccount | undefined; available: string }
  | { kind: 'bank_account_removal'; account: SavedBankAccount | undefined }
  | { kind: 'trade' };

/** What the look before a withdrawal found: a look-alike in doubt first (no exchange read), then the facts, or an error. */
export type CheckFound =
  | { kind: 'twin_in_doubt'; lookAlike: string }
  | { kind: 'read'; facts: CheckFacts }
  | { kind: 'unreadable'; failure: ExchangeFailure };
