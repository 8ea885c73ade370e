/**
 * The declaration use case against the sandbox over HTTP with the file stores: the exact body
 * the exchange received for a listed and an unlisted wallet, 404 and 422 answers, the compliance
 * set, the audit trail, and at most one send per transaction (double submission, redelivery,
 * an answer lost on the way back).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createDeclarations,
  DECLARE_MESSAGES,
  type DeclarationRequest,
} from '../../../../src/bot/engine/compliance/declare.js';
import { createDepositWatch } from '../../../../src/bot/engine/compliance/deposit-watch.js';
import {
  deskOutbox,
  RecordingNotifier,
  startWorld,
  testPolicy,
  USERS,
  type DeskOutbox,
  type World,
} from './support/world.js';

let world: World;
let notifier: RecordingNotifier;
let desk: DeskOutbox;

beforeEach(async () => {
  world = await startWorld('declare');
  notifier = new RecordingNotifier();
  desk = deskOutbox(world, notifier);
});
afterEach(() => world.close());

function declarations() {
  const d = createDeclarations({
    exchange: world.exchange,
    kv: world.kv,
    audit: world.audit,
    notices: desk.notices,
    policy: testPolicy(),
    clock: world.clock,
    logger: world.logger,
  });
  // Each declaration waits for the outbox's delivery pass, so the notifier's calls can be read after it.
  return {
    ...d,
    declare: async (request: DeclarationRequest) => await d.declare(request).finally(() => desk.delivered()),
  };
}

function receive() {
  world.sandbox.control.advance(1_000);
  return world.sandbox.control.injectDeposit({ amount: '1.5', needsCounterpartyInfo: true });
}

const submissions = () => world.sandbox.control.counterpartySubmissions();
const person = (tx: string, extra: Partial<DeclarationRequest> = {}): DeclarationRequest => ({
  userId: USERS.compliance,
  transactionId: tx,
  entityType: 'individual',
  legalName: 'Tan Mei Ling',
  ownership: 'third_party',
  ...extra,
});

describe('counterparty declaration', () => {
  it('sends exactly the reference object for a listed wallet, with a filled address, and reports it once', async () => {
    const deposit = receive();
    const [kraken] = await world.api.listKnownWallets({ name: 'krakn' });
    expect(kraken!.name).toBe('Kraken');

    const outcome = await declarations().declare(
      person(deposit.transaction.uuid, {
        documentNumber: ' S1234567D ',
        address1: '1 Raffles Place',
        address2: '  ',
        postcode: '048616',
        countryCode: 'sg',
        walletId: kraken!.id,
        walletLabel: 'Kraken',
        submissionId: 'V1',
      }),
    );

    expect(outcome).toEqual({
      kind: 'done',
      transactionId: deposit.transaction.uuid,
      createsUnverifiedWallet: false,
      confirmedLate: false,
      replayed: false,
    });
    expect(submissions()).toHaveLength(1);
    expect(submissions()[0]!.transaction_id).toBe(deposit.transaction.uuid);
    expect(submissions()[0]!.body).toStrictEqual({
      wallet_identity_attributes: {
        entity_type: 'individual',
        entity_name: 'Tan Mei Ling',
        ownership: 'third_party',
        entity_identity_document_number: 'S1234567D',
        address_attributes: { country_code: 'SG', address1: '1 Raffles Place', postcode: '048616' },
      },
      crypto_wallet_attributes: { id: kraken!.id },
    });
    expect(notifier.declared()).toEqual([
      expect.objectContaining({
        transactionId: deposit.transaction.uuid,
        userId: USERS.compliance,
        entityName: 'Tan Mei Ling',
        wallet: { kind: 'listed', id: kraken!.id, label: 'Kraken' },
        createsUnverifiedWallet: false,
      }),
    ]);
    const lines = world.auditLines().filter((l) => l.type.startsWith('counterparty.'));
    expect(lines.map((l) => [l.type, l.actor])).toEqual([
      ['counterparty.attempt', USERS.compliance],
      ['counterparty.answer', 'exchange'],
    ]);
    // The audit keeps what was sent, but only the last four characters of the document number.
    expect(lines[0]!.data!.declaration.documentNumber).toBe('*****567D');
    expect(lines[1]!.data).toMatchObject({ transactionId: deposit.transaction.uuid, outcome: 'done', status: 201 });
  });

  it('sends a typed name for a wallet that is not listed, with no address and no document: no nested object left empty', async () => {
    const deposit = receive();
    const outcome = await declarations().declare(
      person(deposit.transaction.uuid, {
        entityType: 'entity',
        legalName: 'Acme Trading Pte Ltd',
        ownership: 'first_party',
        walletName: 'Acme cold storage',
      }),
    );
    expect(outcome).toMatchObject({ kind: 'done', createsUnverifiedWallet: true });
    expect(submissions()[0]!.body).toStrictEqual({
      wallet_identity_attributes: {
        entity_type: 'entity',
        entity_name: 'Acme Trading Pte Ltd',
        ownership: 'first_party',
      },
      crypto_wallet_attributes: { name: 'Acme cold storage' },
    });
    expect(notifier.declared()[0]).toMatchObject({
      wallet: { kind: 'unlisted', name: 'Acme cold storage' },
      createsUnverifiedWallet: true,
    });
  });

  it('sends no wallet part at all when neither a wallet nor a name is given', async () => {
    const deposit = receive();
    await declarations().declare(person(deposit.transaction.uuid, { countryCode: 'GB' }));
    expect(submissions()[0]!.body).toStrictEqual({
      wallet_identity_attributes: {
        entity_type: 'individual',
        entity_name: 'Tan Mei Ling',
        ownership: 'third_party',
        address_attributes: { country_code: 'GB' },
      },
    });
  });

  it('the deposit watch then reports the travel rule status moving from required to submitted, once', async () => {
    const deposit = receive();
    const watch = createDepositWatch(
      {
        exchange: world.exchange,
        kv: world.kv,
        audit: world.audit,
        notices: desk.notices,
        clock: world.clock,
        logger: world.logger,
      },
      { initialLookbackMs: 5_000 },
    );
    await watch.poll();
    await declarations().declare(person(deposit.transaction.uuid, { walletName: 'Unknown wallet' }));
    await watch.poll();
    await watch.poll();
    await desk.delivered();
    expect(notifier.changed().map((c) => c.changes)).toEqual([
      { travelRuleStatus: { from: 'required', to: 'submitted' } },
    ]);
  });

  it('maps 404 to "Transaction not found" on the transaction field, audits it, and lets a corrected id through', async () => {
    const d = declarations();
    const missing = '3f2b1c4d-0000-4000-8000-000000000001';
    const outcome = await d.declare(person(missing));
    expect(outcome).toEqual({ kind: 'invalid', errors: { transactionId: DECLARE_MESSAGES.notFound } });
    expect(DECLARE_MESSAGES.notFound).toMatch(/^Transaction not found/);
    expect(world.auditLines().find((l) => l.type === 'counterparty.answer')!.data).toMatchObject({
      transactionId: missing,
      outcome: 'not_found',
      status: 404,
      message: 'Transaction not found',
    });
    expect(await d.marker(missing)).toBeUndefined();
    expect(notifier.declared()).toHaveLength(0);

    const deposit = receive();
    expect((await d.declare(person(deposit.transaction.uuid))).kind).toBe('done');
  });

  it('says plainly when the exchange already has a declaration (422), and never sends for it again', async () => {
    const deposit = receive();
    // Declared outside this bot (the exchange's app, another tool).
    await world.api.submitCounterpartyInfo(deposit.transaction.uuid, {
      wallet_identity_attributes: { entity_type: 'entity', entity_name: 'Elsewhere', ownership: 'third_party' },
    });
    const postsBefore = world.counterpartyPosts();

    const d = declarations();
    const first = await d.declare(person(deposit.transaction.uuid));
    expect(first).toMatchObject({ kind: 'already_declared', message: DECLARE_MESSAGES.alreadyExists });
    expect(world.counterpartyPosts()).toBe(postsBefore + 1);
    const again = await d.declare(person(deposit.transaction.uuid, { submissionId: 'V9' }));
    expect(again).toMatchObject({ kind: 'already_declared', message: DECLARE_MESSAGES.alreadyExists });
    expect(world.counterpartyPosts()).toBe(postsBefore + 1);
    expect(submissions()).toHaveLength(1);
    expect(notifier.declared()).toHaveLength(0);
    expect(
      world
        .auditLines()
        .filter((l) => l.type === 'counterparty.answer')
        .map((l) => l.data!.outcome),
    ).toEqual(['already_exists']);
    expect(
      world
        .auditLines()
        .filter((l) => l.type === 'counterparty.refused')
        .map((l) => l.data!.reason),
    ).toEqual(['already_declared']);
  });

  it("passes any other 422 on in the exchange's own words, and allows a corrected retry", async () => {
    const deposit = receive();
    const unknownWallet = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const d = declarations();
    const outcome = await d.declare(person(deposit.transaction.uuid, { walletId: unknownWallet }));
    expect(outcome.kind).toBe('rejected');
    if (outcome.kind === 'rejected')
      expect(outcome.message).toContain(`Unknown crypto_wallet_attributes.id ${unknownWallet}`);
    expect(submissions()).toHaveLength(0);
    expect((await d.declare(person(deposit.transaction.uuid, { walletName: 'Typed instead' }))).kind).toBe('done');
  });

  it('refuses anyone outside the compliance set, sends nothing, and audits the attempt', async () => {
    const deposit = receive();
    const d = declarations();
    const outcome = await d.declare(person(deposit.transaction.uuid, { userId: USERS.approver1 }));
    expect(outcome).toEqual({ kind: 'refused', message: DECLARE_MESSAGES.notCompliance });
    expect(await d.mayDeclare(USERS.outsider, 'button', deposit.transaction.uuid)).toBe(false);
    expect(await d.mayDeclare(USERS.compliance, 'command')).toBe(true);
    expect(world.counterpartyPosts()).toBe(0);
    const refused = world.auditLines().filter((l) => l.type === 'counterparty.refused');
    expect(refused.map((l) => [l.actor, l.data!.reason, l.data!.transactionId])).toEqual([
      [USERS.approver1, 'not_compliance', deposit.transaction.uuid],
      [USERS.outsider, 'not_compliance', deposit.transaction.uuid],
    ]);
  });

  it('checks the form before anything is sent: field errors in plain words, audited', async () => {
    const outcome = await declarations().declare({
      userId: USERS.compliance,
      transactionId: 'not-a-uuid',
      legalName: ' ',
      region: 'Central',
      countryCode: '',
    });
    expect(outcome.kind).toBe('invalid');
    if (outcome.kind === 'invalid') {
      expect(Object.keys(outcome.errors).sort()).toEqual([
        'countryCode',
        'entityType',
        'legalName',
        'ownership',
        'transactionId',
      ]);
      expect(outcome.errors.countryCode).toBe('The country code is required once any address field is filled.');
    }
    expect(world.counterpartyPosts()).toBe(0);
    expect(world.auditLines().find((l) => l.type === 'counterparty.refused')!.data).toMatchObject({
      reason: 'invalid',
    });
  });

  it('sends once when the same submission arrives twice at the same time, and answers a redelivery after success alike', async () => {
    const deposit = receive();
    const d = declarations();
    const req = person(deposit.transaction.uuid, { walletName: 'Dup wallet', submissionId: 'V77' });
    const [a, b] = await Promise.all([d.declare(req), d.declare(req)]);
    expect([a.kind, b.kind].sort()).toEqual(['done', 'in_flight']);
    const replay = await d.declare(req);
    expect(replay).toMatchObject({ kind: 'done', replayed: true });
    expect(world.counterpartyPosts()).toBe(1);
    expect(notifier.declared()).toHaveLength(1);
    // Another officer's later submission is told it is already declared.
    const other = await d.declare({ ...req, userId: USERS.compliance2, submissionId: 'V78' });
    expect(other).toMatchObject({
      kind: 'already_declared',
      message: DECLARE_MESSAGES.alreadyDeclared,
      by: USERS.compliance,
    });
    expect(world.counterpartyPosts()).toBe(1);
  });

  it('after a lost answer (committed, connection dropped) says "unknown", and a second submission confirms the first arrived', async () => {
    const deposit = receive();
    world.sandbox.control.addFault({
      kind: 'drop_after_commit',
      method: 'POST',
      path: '/transactions/:id/counterparty_info',
      times: 1,
    });
    const d = declarations();
    const first = await d.declare(person(deposit.transaction.uuid, { walletName: 'Lost answer' }));
    expect(first).toMatchObject({ kind: 'unknown', message: DECLARE_MESSAGES.unknown });
    expect(await d.marker(deposit.transaction.uuid)).toMatchObject({ state: 'unknown' });
    expect(notifier.declared()).toHaveLength(0);

    // A restart in between changes nothing: the marker is on disk.
    await world.restart();
    const second = await declarations().declare(person(deposit.transaction.uuid, { walletName: 'Lost answer' }));
    expect(second).toMatchObject({ kind: 'done', confirmedLate: true });
    expect(submissions()).toHaveLength(1);
    expect(notifier.declared()).toEqual([expect.objectContaining({ confirmedLate: true })]);
    expect(
      world
        .auditLines()
        .filter((l) => l.type === 'counterparty.attempt')
        .map((l) => l.data!.resend),
    ).toEqual([false, true]);
  });
});
