// POST /transactions/{id}/counterparty_info: 404 "Transaction not found", 422 "Counterparty info already
// exists", 422 for a bad body or a transaction that is not a RECEIVE.
import { COUNTERPARTY_EXISTS_MESSAGE, COUNTERPARTY_EXISTS_STATUS } from '../../../bot/exchange/assumptions.js';
import { counterpartyInfoBody } from '../../../bot/exchange/schemas.js';
import { startDepositReview } from '../lifecycle.js';
import { created, fail, validate, type Route } from '../router.js';
import { findTransaction } from '../state.js';

export const counterpartyRoutes: Route[] = [
  {
    method: 'POST',
    path: '/transactions/:transaction_id/counterparty_info',
    auth: 'key',
    handler: ({ state, account, params, body, now }) => {
      const tx = findTransaction(account, params.transaction_id!);
      if (!tx) fail(404, 'Transaction not found');
      if (tx.type !== 'RECEIVE') fail(422, 'Counterparty info is only supported for RECEIVE transactions');
      if (account.counterparty.some((c) => c.transaction_id === params.transaction_id))
        fail(COUNTERPARTY_EXISTS_STATUS, COUNTERPARTY_EXISTS_MESSAGE);
      const info = validate(counterpartyInfoBody, body);
      const wallet = info.crypto_wallet_attributes;
      const known = wallet?.id !== undefined ? state.wallets.find((w) => w.id === wallet.id) : undefined;
      if (wallet?.id !== undefined && !known)
        fail(
          422,
          `Unknown crypto_wallet_attributes.id ${wallet.id}: pick one from the known-wallet listing or send a name`,
        );
      const submission = { id: state.rng.uuid(), transaction_id: params.transaction_id!, created_at: now, body: info };
      account.counterparty.push(submission);
      startDepositReview(account, submission.transaction_id, now);
      return created({
        id: submission.id,
        transaction_id: submission.transaction_id,
        status: 'submitted',
        created_at: now,
        wallet_identity: {
          entity_type: info.wallet_identity_attributes.entity_type,
          entity_name: info.wallet_identity_attributes.entity_name,
          ownership: info.wallet_identity_attributes.ownership,
        },
        // A name instead of a listed wallet creates an unverified wallet and a compliance review.
        crypto_wallet: wallet
          ? { id: known?.id ?? null, name: known?.name ?? wallet.name ?? null, verified: known !== undefined }
          : null,
        compliance_review: wallet !== undefined && known === undefined,
      });
    },
  },
];
