// An external_select as a combobox: typing asks the bot for options (block_suggestion, via the server) and
// lists them; arrows move, Enter or click chooses, Escape closes.
import { useEffect, useRef, useState } from 'preact/hooks';
import { asOptionGroups, asOptions, type KitOption, type OptionGroup } from '../kit.js';
import { actionPayload, actionTs, currentState, type ElementState } from '../state-values.js';
import { plainText } from '../text.js';
import { elementId, useSurface } from '../surface.js';
import { useAction } from '../use-action.js';
import type { ElementProps } from './props.js';

/** Slack's default min_query_length. */
const MIN_QUERY = 3;
const DEBOUNCE_MS = 200;

type Results =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'error'; error: string }
  | { kind: 'answer'; groups: OptionGroup[]; options: KitOption[] };

export function ExternalSelect({ element, blockId, actionId, dispatch, field }: ElementProps) {
  const surface = useSurface();
  const { run } = useAction();
  const state = currentState({ blockId, actionId, element }, surface.entered);
  const chosen = state.selected_option ?? undefined;
  const [query, setQuery] = useState(chosen ? plainText(chosen.text) : '');
  const [open, setOpen] = useState(false);
  const [results, setResults] = useState<Results>({ kind: 'idle' });
  const [active, setActive] = useState(0);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const asked = useRef(0);
  const listId = elementId(surface, blockId, actionId, 'list');
  const minQuery = typeof element.min_query_length === 'number' ? element.min_query_length : MIN_QUERY;
  const flat = results.kind === 'answer' ? [...results.options, ...results.groups.flatMap((g) => g.options)] : [];
  useEffect(() => () => clearTimeout(timer.current), []);

  const ask = (value: string) => {
    clearTimeout(timer.current);
    if (value.trim().length < minQuery) {
      setResults({ kind: 'idle' });
      return;
    }
    timer.current = setTimeout(async () => {
      if (!surface.suggest) {
        setResults({ kind: 'error', error: 'Options are only asked for in a modal here.' });
        return;
      }
      const mine = ++asked.current;
      setResults({ kind: 'loading' });
      const answer = await surface.suggest(blockId, actionId, value);
      if (mine !== asked.current) return; // a later keystroke asked again
      setActive(0);
      setResults(
        answer.ok
          ? { kind: 'answer', options: asOptions(answer.options), groups: asOptionGroups(answer.option_groups) }
          : { kind: 'error', error: answer.error },
      );
    }, DEBOUNCE_MS);
  };

  const choose = (o: KitOption | null) => {
    const next: ElementState = { type: element.type, selected_option: o };
    surface.enter(blockId, actionId, next);
    surface.edited?.(blockId);
    setQuery(o ? plainText(o.text) : '');
    setOpen(false);
    if (dispatch && o) void run(actionPayload(element, blockId, actionId, actionTs(Date.now()), next));
  };

  const onInput = (e: Event) => {
    const value = (e.currentTarget as HTMLInputElement).value;
    setQuery(value);
    setOpen(true);
    if (chosen) surface.enter(blockId, actionId, { type: element.type, selected_option: null });
    ask(value);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(true);
      if (flat.length > 0) setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : flat.length - 1)) % flat.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const o = flat[active];
      if (open && o) choose(o);
    } else if (e.key === 'Escape' && open) {
      e.stopPropagation();
      setOpen(false);
    }
  };

  const optionId = (i: number) => `${listId}-${i}`;
  let index = 0;
  const item = (o: KitOption) => {
    const i = index++;
    return (
      <div
        key={`${o.value}-${i}`}
        id={optionId(i)}
        role="option"
        aria-selected={i === active}
        class={`listbox-option${i === active ? ' active' : ''}`}
        onMouseDown={(e) => e.preventDefault()}
        onClick={() => choose(o)}
      >
        <span class="option-text">{plainText(o.text)}</span>
        {o.description && <span class="option-description">{plainText(o.description)}</span>}
      </div>
    );
  };
  const placeholder = plainText(element.placeholder);
  const showList = open && results.kind !== 'idle';
  return (
    <div class="kit-combobox">
      <input
        id={field?.inputId}
        type="text"
        role="combobox"
        autocomplete="off"
        aria-label={field ? undefined : placeholder || 'Search'}
        aria-describedby={field?.describedBy}
        aria-invalid={field?.invalid || undefined}
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={showList && flat.length > 0 ? optionId(active) : undefined}
        placeholder={placeholder}
        value={query}
        onInput={onInput}
        onKeyDown={onKeyDown}
        onFocus={() => query && setOpen(true)}
        onBlur={() => setOpen(false)}
      />
      <div id={listId} role="listbox" aria-label={placeholder || 'Options'} class="listbox" hidden={!showList}>
        {results.kind === 'loading' && <div class="listbox-note">Searching…</div>}
        {results.kind === 'error' && (
          <div class="listbox-note error" role="alert">
            {results.error}
          </div>
        )}
        {results.kind === 'answer' && flat.length === 0 && <div class="listbox-note">No matches</div>}
        {results.kind === 'answer' && results.options.map(item)}
        {results.kind === 'answer' &&
          results.groups.map((g, gi) => (
            <div key={gi} role="group" aria-labelledby={`${listId}-g${gi}`} class="listbox-group">
              <div id={`${listId}-g${gi}`} class="listbox-group-label">
                {plainText(g.label)}
              </div>
              {g.options.map(item)}
            </div>
          ))}
      </div>
    </div>
  );
}
