// What Slack does to a command with `should_escape` on: a person named in the text ("@Ben" or
// "@Ben Approver", as picked from Slack's list) reaches the bot as `<@U…|name>`.
import type { Person } from '../protocol.js';

export function escapeMentions(text: string, people: readonly Person[]): string {
  // Full names before first names, so "@Ben Approver" is not read as "@Ben" and a stray word.
  const names = people
    .flatMap((p) => [
      { said: p.name, person: p },
      { said: p.name.split(' ')[0]!, person: p },
    ])
    .sort((a, b) => b.said.length - a.said.length);
  return text.replace(/@([\p{L}][\p{L}\p{N}._-]*(?: [\p{L}][\p{L}\p{N}._-]*)?)/gu, (typed, words: string) => {
    for (const { said, person } of names) {
      if (words.toLowerCase() === said.toLowerCase()) return `<@${person.id}|${handleOf(person)}>`;
      if (words.toLowerCase().startsWith(`${said.toLowerCase()} `))
        return `<@${person.id}|${handleOf(person)}>${words.slice(said.length)}`;
    }
    return typed;
  });
}

/** Slack's escaped mention carries the person's handle, lower case without spaces. */
const handleOf = (p: Person) => p.name.toLowerCase().replace(/\s+/g, '.');
