/**
 * hireloop's page: sign in, chat to create an employee (answering its prompts), and see the org's
 * employees, their runs and everything waiting for this user's answer. It speaks only the gateway's
 * public protocols (ARCHITECTURE §4a, §11): the chat socket and the `/v1` HTTP routes.
 */
import './style.css';
import { Api, devToken, tokenClaims } from './api';
import { type ConversationView, conversationView } from './conversation';
import { h, keepFocus } from './dom';
import { employeePage, employeesPage, inboxPage, runPage } from './runs';

const TOKEN_KEY = 'hireloop.token';
const root = document.getElementById('app')!;

interface Session {
  token: string;
  userId: string;
  orgId: string;
}

/** Why the page is at its sign-in form, when it was not by choice. */
let signInNotice: string | null = null;

/** A token from the URL (`?token=`, removed from the address bar at once), else the one kept for this tab. */
function initialSession(): Session | null {
  const url = new URL(location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    url.searchParams.delete('token');
    history.replaceState(null, '', url);
    sessionStorage.setItem(TOKEN_KEY, fromUrl);
  }
  const token = fromUrl ?? sessionStorage.getItem(TOKEN_KEY);
  const claims = token ? tokenClaims(token) : null;
  if (token && !claims) {
    sessionStorage.removeItem(TOKEN_KEY);
    signInNotice = fromUrl
      ? 'The sign-in link holds a token this page cannot read, or one that has expired: ask for a new link.'
      : 'Your session has expired: sign in again.';
  }
  return token && claims ? { token, ...claims } : null;
}

/** The gateway refused the token (forged, expired, revoked): back to the sign-in form, saying why. */
function signedOut(message: string): void {
  if (!current) return;
  sessionStorage.removeItem(TOKEN_KEY);
  current.chat?.close();
  current = null;
  window.onhashchange = null;
  signInNotice = `You are signed out: hireloop refused your token (${message}). Sign in again, or ask for a new link.`;
  signInPage();
}

function signIn(session: Session): void {
  sessionStorage.setItem(TOKEN_KEY, session.token);
  start(session);
}

// A host that embeds the page may hand it a token: postMessage({type: 'hireloop-token', token}).
window.addEventListener('message', (event) => {
  const data = event.data as { type?: unknown; token?: unknown } | null;
  if (event.origin !== location.origin && window.parent === window) return;
  if (data?.type !== 'hireloop-token' || typeof data.token !== 'string') return;
  const claims = tokenClaims(data.token);
  if (claims) signIn({ token: data.token, ...claims });
});

function signInPage(): void {
  // examples as placeholders, not values: the form holds only what this person types (empty again after Sign out)
  const user = h('input', {
    id: 'signin-user',
    name: 'user',
    autocomplete: 'username',
    placeholder: 'e.g. alice',
    required: true,
  });
  const org = h('input', {
    id: 'signin-org',
    name: 'org',
    autocomplete: 'organization',
    placeholder: 'e.g. acme',
    required: true,
  });
  const alert = h('div', {}, signInNotice ? h('p', { role: 'alert', class: 'alert' }, signInNotice) : null);
  signInNotice = null;
  const form = h(
    'form',
    {
      class: 'card signin',
      'aria-labelledby': 'signin-title',
      onSubmit: async (event: Event) => {
        event.preventDefault();
        alert.replaceChildren();
        const res = await devToken(user.value.trim(), org.value.trim());
        if (res.ok) {
          const claims = tokenClaims(res.body.token);
          if (claims) return signIn({ token: res.body.token, ...claims });
        }
        const message = res.ok
          ? 'the gateway gave a token this page cannot read'
          : res.status === 404
            ? 'signing in by name works only on a development gateway: open the link your administrator gave you (it ends in ?token=…)'
            : res.message;
        alert.replaceChildren(h('p', { role: 'alert', class: 'alert' }, `Could not sign in: ${message}`));
      },
    },
    h('h1', { id: 'signin-title' }, 'Sign in to hireloop'),
    h(
      'p',
      { class: 'muted' },
      'Development sign-in: any user name, and the organisation whose integrations to use (acme is connected to the common apps).',
    ),
    h('label', { for: 'signin-user' }, 'User'),
    user,
    h('label', { for: 'signin-org' }, 'Organisation'),
    org,
    alert,
    h('button', { type: 'submit', class: 'primary' }, 'Sign in'),
  );
  root.replaceChildren(h('main', { class: 'center' }, form));
  user.focus();
}

let current: { session: Session; api: Api; chat: ConversationView | null } | null = null;

function start(session: Session): void {
  current?.chat?.close();
  current = { session, api: new Api(session.token, signedOut), chat: null };
  window.onhashchange = () => route();
  route();
  // a token this page can read may still be one the gateway refuses: ask once, at once
  void current.api.get('/v1/employees');
}

function shell(session: Session, active: string, ...content: Node[]): void {
  const link = (href: string, label: string, key: string) =>
    h('a', { href, ...(active === key ? { 'aria-current': 'page' } : {}) }, label);
  root.replaceChildren(
    h(
      'header',
      { class: 'top' },
      h('a', { href: '#/', class: 'brand' }, 'hireloop'),
      h(
        'nav',
        { 'aria-label': 'Main' },
        link('#/', 'Chat', 'chat'),
        link('#/employees', 'Employees', 'employees'),
        link('#/inbox', 'Inbox', 'inbox'),
      ),
      h(
        'div',
        { class: 'who' },
        h('span', {}, `${session.userId} · ${session.orgId}`),
        h(
          'button',
          {
            type: 'button',
            onClick: () => {
              sessionStorage.removeItem(TOKEN_KEY);
              current?.chat?.close();
              current = null;
              location.hash = '';
              signInPage();
            },
          },
          'Sign out',
        ),
      ),
    ),
    ...content,
  );
}

/**
 * A view reached by a link: the window's title names it, and focus goes to its heading once it is
 * there, so that keyboard and screen-reader users land on the new view, not on the page's body.
 */
function arrived(main: HTMLElement, title: string, rendered: Promise<unknown>): void {
  document.title = `${title} — hireloop`;
  // the link followed is gone with the view it was on
  void rendered.finally(() => keepFocus(main.querySelector<HTMLElement>('h1, h2')));
}

function route(): void {
  if (!current) return;
  const { session, api } = current;
  const parts = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  const [page, id] = parts;
  if (page !== 'chat') {
    current.chat?.close();
    current.chat = null;
  }
  switch (page) {
    case 'employees': {
      const main = h('main', { class: 'page' });
      shell(session, 'employees', main);
      arrived(main, id ? 'Employee' : 'Employees', id ? employeePage(api, main, id) : employeesPage(api, main));
      return;
    }
    case 'runs': {
      const main = h('main', { class: 'page' });
      shell(session, 'employees', main);
      arrived(main, 'Run', runPage(api, main, id ?? ''));
      return;
    }
    case 'inbox': {
      const main = h('main', { class: 'page' });
      shell(session, 'inbox', main);
      arrived(main, 'Inbox', inboxPage(api, main));
      return;
    }
    case 'chat': {
      if (!id) break;
      if (current.chat?.conversationId === id) return;
      current.chat?.close();
      const view = conversationView(api, session.userId, id);
      current.chat = view;
      shell(session, 'chat', view.element);
      document.title = 'Chat — hireloop';
      view.focus();
      return;
    }
    default:
      break;
  }
  // no conversation named: the last one of this tab, else a new one
  const last = sessionStorage.getItem('hireloop.conversation');
  location.replace(`#/chat/${encodeURIComponent(last ?? crypto.randomUUID())}`);
}

const session = initialSession();
if (session) start(session);
else signInPage();

// time to first render, for the page's own measurement (tests read it)
performance.mark('hireloop-rendered');
