/**
 * The page's one way to make elements. Text is always a text node (never parsed as HTML), so what
 * users and job descriptions say shows as typed, `<script>` included.
 */
export type Child = Node | string | number | null | undefined | false | Child[];
type Handler = (event: Event) => void;
export type Props = Record<string, string | number | boolean | Handler | null | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(key.slice(2).toLowerCase(), value);
    else if (key === 'value' && 'value' in el) (el as HTMLInputElement).value = String(value);
    else if (key === 'checked' && el instanceof HTMLInputElement) el.checked = Boolean(value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's children. */
export function fill(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

let counter = 0;
/** A page-unique id for label/field pairs. */
export const uid = (prefix: string): string => `${prefix}-${++counter}`;

export function formatTime(iso: string | undefined | null, seconds = false): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : d.toLocaleString(undefined, { dateStyle: 'short', timeStyle: seconds ? 'medium' : 'short' });
}

/**
 * A captioned table in a wrapper that scrolls sideways on a narrow screen (focusable, so that a keyboard
 * can scroll it); with no rows, one row that says so — the table is there either way (§13 names it).
 */
export function table(caption: string, columns: string[], rows: Node[][], empty = 'None yet.'): HTMLElement {
  const body =
    rows.length > 0
      ? rows.map((cells) =>
          h(
            'tr',
            {},
            cells.map((c) => h('td', {}, c)),
          ),
        )
      : [h('tr', {}, h('td', { colspan: columns.length }, empty))];
  return h(
    'div',
    { class: 'table-wrap', role: 'region', 'aria-label': `${caption} (scrolls sideways when narrow)`, tabindex: 0 },
    h(
      'table',
      {},
      h('caption', {}, caption),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          columns.map((c) => h('th', { scope: 'col' }, c)),
        ),
      ),
      h('tbody', {}, body),
    ),
  );
}

/**
 * Focus left on a control that is gone (a view or a prompt replaced) goes to `to`, not to the page's body;
 * focus the user has moved meanwhile stays where it is. A heading or text is made focusable for it.
 */
export function keepFocus(to: HTMLElement | null | undefined): void {
  const active = document.activeElement;
  // (a control disabled while it has focus keeps it until the browser moves it to the page's body, a moment later)
  const lost = active === document.body || !active?.isConnected || (active as HTMLButtonElement).disabled === true;
  if (!lost || !to?.isConnected) return;
  if (!to.hasAttribute('tabindex') && !/^(INPUT|TEXTAREA|BUTTON|A|SELECT)$/.test(to.tagName)) to.setAttribute('tabindex', '-1');
  to.focus();
}

/**
 * A progressbar "Progress" (§13) with what is being done as its value text, and the same words beside the bar;
 * hidden until it is first shown.
 */
export function progressBar(): { element: HTMLElement; show: (text: string, percent?: number | null) => void } {
  const fill = h('div', { class: 'bar-fill' });
  const said = h('span', { class: 'bar-text' });
  const bar = h(
    'div',
    { role: 'progressbar', 'aria-label': 'Progress', 'aria-valuemin': 0, 'aria-valuemax': 100, class: 'bar' },
    fill,
  );
  const element = h('div', { class: 'progress', hidden: true }, bar, said);
  return {
    element,
    show(text, percent) {
      element.hidden = false;
      // (unknown: the bar says nothing of how far, rather than what an earlier show said)
      if (percent != null) {
        bar.setAttribute('aria-valuenow', String(percent));
        fill.style.width = `${percent}%`;
      } else {
        bar.removeAttribute('aria-valuenow');
        fill.style.width = '0';
      }
      bar.setAttribute('aria-valuetext', text);
      said.textContent = text;
    },
  };
}
