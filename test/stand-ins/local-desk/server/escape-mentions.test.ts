// The local desk escapes people in /desk as Slack does with should_escape on, so /desk delegate works there.
import { describe, expect, it } from 'vitest';
import { escapeMentions } from '../../../../src/stand-ins/local-desk/server/escape-mentions.js';
import type { Person } from '../../../../src/stand-ins/local-desk/protocol.js';

const people: Person[] = [
  { id: 'U0BEN', name: 'Ben Approver', initials: 'BA', role: 'approver', tz: 'UTC' },
  { id: 'U0BENJ', name: 'Benjamin Risk', initials: 'BR', role: 'approver', tz: 'UTC' },
];

describe('escapeMentions', () => {
  it('a first name or a full name becomes the escaped mention; the rest of the line is kept', () => {
    expect(escapeMentions('delegate @Ben until 2026-12-24', people)).toBe(
      'delegate <@U0BEN|ben.approver> until 2026-12-24',
    );
    expect(escapeMentions('delegate @ben approver until 2026-12-24', people)).toBe(
      'delegate <@U0BEN|ben.approver> until 2026-12-24',
    );
    expect(escapeMentions('2fa reset @Benjamin', people)).toBe('2fa reset <@U0BENJ|benjamin.risk>');
  });

  it('someone not on the desk, and text without a person, are sent as typed', () => {
    expect(escapeMentions('delegate @Zed until 2026-12-24', people)).toBe('delegate @Zed until 2026-12-24');
    expect(escapeMentions('pending 2', people)).toBe('pending 2');
  });
});
