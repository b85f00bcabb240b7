/**
 * One conversation: the transcript (a `log` "Conversation": the user's lines, hireloop's replies, the
 * prompts answered with their answers, how each execution ended), the pending prompt's form, progress,
 * the finished employee, the message box, and beside it the user's conversations with each execution's
 * status. The transcript is rebuilt from the executions' timelines when the page loads, and the socket
 * reconnects by itself; on every (re)join the gateway pushes the pending prompt again and the page
 * catches up on what ended meanwhile.
 */
import type { ExecutionView, ServerFrame } from '@hireloop/schemas';
import { type Api, ENDED } from './api';
import { formatTime, h, keepFocus, progressBar } from './dom';
import { employeeView, type Spec } from './employee';
import { type Answer, answeredView, type Prompt, promptForm } from './prompt';
import { ChatSocket, type LinkState } from './socket';

export interface ConversationView {
  element: HTMLElement;
  conversationId: string;
  close(): void;
  focus(): void;
}

type Execution = ExecutionView;
type TimelineFact = { type: string; ts: string; fact: Record<string, unknown> };
type ChatLine = { id: string; role: 'user' | 'assistant'; text: string; ts: string };

const TITLES_KEY = 'hireloop.titles';
/** The longest chat line the gateway takes (`Limits.text` of the contract's message frame; a unit test holds them equal). */
export const MESSAGE_LIMIT = 20_000;

/** Why a chat line cannot be sent as written, or null: checked before it is sent, shown, or made a title. */
export function messageProblem(text: string): string | null {
  if (!text) return 'Write a message first.';
  if (text.length > MESSAGE_LIMIT)
    return `Your message is ${text.length.toLocaleString('en')} characters; hireloop takes at most ${MESSAGE_LIMIT.toLocaleString('en')}. Shorten it and send it again.`;
  return null;
}

function titles(): Record<string, string> {
  try {
    return JSON.parse(localStorage.getItem(TITLES_KEY) ?? '{}') as Record<string, string>;
  } catch {
    return {};
  }
}
function rememberTitle(conversationId: string, text: string): void {
  const all = titles();
  if (all[conversationId]) return;
  const line = text.replace(/\s+/g, ' ');
  all[conversationId] = line.length > 80 ? `${line.slice(0, 79)}…` : line;
  localStorage.setItem(TITLES_KEY, JSON.stringify(all));
}

export const statusWords = (status: string): string =>
  ({ waiting: 'waiting for your answer', running: 'working', queued: 'queued' })[status] ?? status;

/** What this page knows of its conversation's executions ahead of the list the side panel reads (a projection that lags). */
export interface PageKnows {
  /** how executions ended, as the socket said */
  ended: ReadonlyMap<string, string>;
  /** executions with a prompt on this page that waits for an answer: the form's, and those held back behind it */
  asking: ReadonlySet<string>;
  /** prompts answered (here, or elsewhere as the page learnt) */
  answered: ReadonlySet<string>;
  /** the last phase the socket said of each execution */
  phases: ReadonlyMap<string, string>;
}

/**
 * An execution's status and phase as the side panel says them: the list's, brought up to what the page knows —
 * waiting whenever a prompt of it is the one pending here, working once that prompt is answered, ended as the
 * socket said. Pure.
 */
export function panelStatus(
  listed: Pick<Execution, 'executionId' | 'status' | 'phase' | 'currentPrompt'>,
  knows: PageKnows,
): { status: string; phase: string | null } {
  if (ENDED.has(listed.status)) return { status: listed.status, phase: null };
  const ended = knows.ended.get(listed.executionId);
  if (ended) return { status: ended, phase: null };
  const phase = knows.phases.get(listed.executionId) ?? listed.phase;
  if (knows.asking.has(listed.executionId)) return { status: 'waiting', phase };
  if (listed.status === 'waiting' && listed.currentPrompt && knows.answered.has(listed.currentPrompt.promptId))
    return { status: 'running', phase };
  return { status: listed.status, phase };
}

/** The progressbar's words for one execution: its phase, its place in the queue, how far. Pure. */
export function progressWords(
  state: { phase?: string | null; percent?: number | null; position?: number },
  idle: string,
): string {
  return [
    state.phase || idle,
    state.position !== undefined ? `position ${state.position} in the queue` : null,
    state.percent != null ? `${state.percent}%` : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

export function conversationView(api: Api, userId: string, conversationId: string): ConversationView {
  sessionStorage.setItem('hireloop.conversation', conversationId);
  const prompts = new Map<string, { prompt: Prompt; answered: boolean }>();
  const resultsShown = new Set<string>();
  /** how executions ended, as the socket said: the projection the panel reads may lag behind */
  const live = new Map<string, string>();
  let pending: { executionId: string; promptId: string } | null = null;
  /**
   * The execution whose prompts the form holds until it ends, and the prompts of the others in this
   * conversation (a second message started another creation): shown one execution at a time, oldest first.
   */
  let current: string | null = null;
  const waiting = new Map<string, Prompt>();
  /**
   * how far each execution is, as the socket (or, for one it has said nothing of, the list) says: the progressbar
   * shows the one whose prompt the form holds, never another's phase beside its progress
   */
  const seen = new Map<string, { phase?: string | null; percent?: number | null; position?: number }>();
  /** The list the side panel last read (null until read, or when it could not be). */
  let listed: Execution[] | null = null;
  /** what the panel last drew, so that it is not drawn again (and a focused Cancel not replaced) for nothing */
  let drawn = '';
  let closed = false;
  /** while the transcript loads, frames wait here so that they follow it */
  let early: ServerFrame[] | null = [];

  const log = h('div', { role: 'log', 'aria-label': 'Conversation', 'aria-live': 'polite', class: 'log' });
  const link = h('p', { role: 'status', class: 'link muted' }, 'Connecting…');
  const promptHolder = h('div', { class: 'prompt-holder' });
  const progress = progressBar();
  const employeeHolder = h('div', { class: 'employee-holder' });
  const message = h('textarea', {
    id: `message-${conversationId}`,
    rows: 3,
    placeholder: 'Describe a job, e.g. "When a deal closes in HubSpot, send a welcome email and book a kickoff."',
    'aria-describedby': 'message-hint',
  });
  const composerAlert = h('div', {});
  const panel = h('div', { class: 'panel-list' });
  const panelAlert = h('div', {});

  const entry = (who: 'user' | 'reply' | 'system' | 'error', ...content: (Node | string)[]) => {
    const label = { user: 'You', reply: 'hireloop', system: 'hireloop', error: 'Problem' }[who];
    log.append(
      h(
        'div',
        { class: `entry ${who}`, ...(who === 'error' ? { role: 'alert' } : {}) },
        h('span', { class: 'who' }, label),
        ...content.map((c) => (typeof c === 'string' ? h('p', {}, c) : c)),
      ),
    );
    log.scrollTop = log.scrollHeight;
  };

  /** The progressbar, showing one execution: what is known of it. */
  function showProgress(executionId: string) {
    const state = seen.get(executionId);
    if (!state) return;
    const idle = pending?.executionId === executionId ? 'waiting for your answer' : 'working';
    progress.show(progressWords(state, idle), state.percent);
  }

  /**
   * What an execution's phase event, prompt or end says of how far it is; shown when it is the execution the
   * form is about (or no execution holds the form). A prompt or event that says nothing of a part keeps the last.
   */
  function noteProgress(
    executionId: string,
    update: { phase?: string | null | undefined; percent?: number | null | undefined; position?: number | undefined },
  ) {
    const before = seen.get(executionId) ?? {};
    const phase = update.phase ?? before.phase;
    seen.set(executionId, {
      phase,
      percent: update.percent ?? before.percent,
      // (a queue position is said by the event that has it; the next event without one has left the queue)
      ...(update.position !== undefined ? { position: update.position } : {}),
    });
    if (current === null || current === executionId) showProgress(executionId);
    if (phase !== before.phase) drawPanel();
  }

  /** The pending prompt of this execution, answered somewhere else (another tab): kept in the log as asked. */
  function answeredElsewhere(executionId: string) {
    if (!pending || pending.executionId !== executionId) return;
    const before = prompts.get(pending.promptId);
    if (!before || before.answered) return;
    prompts.set(pending.promptId, { prompt: before.prompt, answered: true });
    log.append(answeredView(before.prompt, null));
  }

  function showPrompt(executionId: string, prompt: Prompt) {
    const known = prompts.get(prompt.promptId);
    if (known?.answered || pending?.promptId === prompt.promptId) return;
    const another = current !== null && current !== executionId && !resultsShown.has(current);
    // the prompt that waits, pushed again (a reconnect, a catch-up): it keeps waiting
    if (another && waiting.get(executionId)?.promptId === prompt.promptId) return;
    if (another && current) {
      // the newest prompt of the conversation takes the form, as a chat line answers the newest (the gateway's
      // rule); the one it replaces waits and asks again once this creation is done
      const held = pending?.executionId === current ? prompts.get(pending.promptId) : undefined;
      if (held && !held.answered && !waiting.has(current)) {
        waiting.set(current, held.prompt);
        entry(
          'system',
          'An earlier creation in this conversation is still waiting for your answer: it asks again once this one is done. Cancel either from the list of your conversations.',
        );
      }
    }
    waiting.delete(executionId);
    current = executionId;
    answeredElsewhere(executionId);
    prompts.set(prompt.promptId, { prompt, answered: false });
    pending = { executionId, promptId: prompt.promptId };
    noteProgress(executionId, { percent: prompt.progress });
    const form = promptForm({
      prompt,
      submit: (answer: Answer) =>
        api.post(`/v1/executions/${encodeURIComponent(executionId)}/respond`, {
          promptId: prompt.promptId,
          kind: prompt.kind,
          payload: answer,
        }),
      answered: (answer) => markAnswered(prompt, answer),
      stale: (notice) => {
        // answered elsewhere, or the execution moved on: say the answer was not used (in the transcript, as an
        // alert that outlives the form), then show where it is now
        entry('error', h('p', {}, notice));
        prompts.set(prompt.promptId, { prompt, answered: true });
        if (pending?.promptId === prompt.promptId) pending = null;
        void catchUp();
      },
    });
    promptHolder.replaceChildren(form);
    form.querySelector<HTMLElement>('input, textarea')?.focus();
    // said at once from what the page knows, then with the list read again (which may not show the prompt yet)
    drawPanel();
    void refreshPanel();
  }

  function markAnswered(prompt: Prompt, answer: Answer) {
    prompts.set(prompt.promptId, { prompt, answered: true });
    log.append(answeredView(prompt, answer));
    log.scrollTop = log.scrollHeight;
    if (pending?.promptId === prompt.promptId) {
      pending = null;
      const waiting = h('p', { class: 'muted', role: 'status' }, 'Answer sent. Waiting for hireloop…');
      promptHolder.replaceChildren(waiting);
      keepFocus(waiting);
    }
    drawPanel();
  }

  function showResult(executionId: string, status: string, output?: Record<string, unknown>, error?: unknown) {
    if (resultsShown.has(executionId)) return;
    resultsShown.add(executionId);
    live.set(executionId, status);
    waiting.delete(executionId);
    // a prompt left when the execution completed was answered in another window; one left by a cancel was not answered
    if (status === 'completed') answeredElsewhere(executionId);
    else if (pending?.executionId === executionId) {
      const left = prompts.get(pending.promptId);
      if (left) prompts.set(pending.promptId, { prompt: left.prompt, answered: true });
    }
    if (pending?.executionId === executionId || !pending) {
      pending = null;
      promptHolder.replaceChildren();
    }
    const spec = (output as { employee?: Spec } | undefined)?.employee;
    const before = seen.get(executionId);
    seen.set(
      executionId,
      status === 'completed' ? { phase: 'done', percent: 100 } : { phase: status, percent: before?.percent ?? null },
    );
    // the bar is this execution's when the form is (or no execution holds it): another creation that ended leaves it be
    if (current === executionId || !current) showProgress(executionId);
    if (status === 'completed') {
      entry('system', spec ? `Done: ${spec.name} is designed and registered. Review it below, then activate it.` : 'Done.');
      if (spec) employeeHolder.replaceChildren(employeeView(api, spec));
      keepFocus(employeeHolder.querySelector<HTMLElement>('h2, h3') ?? message);
    } else {
      const why = typeof error === 'object' && error && 'message' in error ? String((error as { message: unknown }).message) : '';
      entry('system', status === 'cancelled' ? 'This creation was cancelled.' : `This creation failed${why ? `: ${why}` : '.'}`);
      panelAlert.replaceChildren();
      // the form is this execution's only when it holds it: another creation that waited and ended leaves it be
      if (pending?.executionId === executionId || !pending) promptHolder.replaceChildren();
      keepFocus(message);
    }
    if (current === executionId) {
      current = null;
      // the creation of this conversation that waited last asks again
      const next = [...waiting].at(-1);
      if (next) showPrompt(next[0], next[1]);
    }
    void refreshPanel();
  }

  function onFrame(frame: ServerFrame) {
    if ('conversationId' in frame && frame.conversationId !== conversationId) return;
    switch (frame.type) {
      case 'hil_prompt': {
        const { type: _t, conversationId: _c, ...prompt } = frame;
        showPrompt(frame.executionId, prompt as Prompt);
        return;
      }
      case 'execution_event': {
        const position = (frame as { position?: unknown }).position;
        noteProgress(frame.executionId, {
          phase: frame.phase,
          percent: frame.progress,
          position: typeof position === 'number' ? position : undefined,
        });
        return;
      }
      case 'execution_result':
        showResult(frame.executionId, frame.status, frame.output as Record<string, unknown> | undefined, frame.error);
        return;
      case 'message':
        entry('reply', h('p', {}, frame.text));
        return;
      case 'error':
        if (frame.code === 'unauthorized') return api.unauthorized(frame.message);
        entry('error', h('p', {}, `hireloop refused that: ${frame.message}`));
        return;
      default: {
        const never: never = frame;
        return never;
      }
    }
  }

  function onLink(state: LinkState) {
    link.textContent = { connecting: 'Connecting…', open: 'Connected', reconnecting: 'Connection lost: reconnecting…' }[state];
    link.classList.toggle('warn', state === 'reconnecting');
    if (state === 'open' && !early) void catchUp();
  }

  /** What the stream may have carried while the socket was away: results, the pending prompt, progress. */
  async function catchUp() {
    const res = await api.get<{ executions: Execution[] }>(`/v1/executions?conversationId=${encodeURIComponent(conversationId)}`);
    if (!res.ok || closed) return;
    for (const e of [...res.body.executions].reverse()) {
      if (e.result)
        showResult(e.executionId, e.result.status, e.result.output as Record<string, unknown> | undefined, e.result.error);
      else {
        // the list may lag behind what the socket said: it does not take an execution back
        const known = seen.get(e.executionId);
        if (!known || (e.progress ?? -1) >= (known.percent ?? -1))
          noteProgress(e.executionId, { phase: e.phase, percent: e.progress });
        if (e.currentPrompt) showPrompt(e.executionId, e.currentPrompt);
      }
    }
  }

  /**
   * The transcript as the event store has it, in time order: the chat lines (the user's and the replies),
   * each execution's request when it came from elsewhere than a chat line, its prompts with their
   * answers, and how it ended. The pending prompt is left to the socket, which pushes it on joining.
   */
  async function loadHistory() {
    const id = encodeURIComponent(conversationId);
    const [res, lines] = await Promise.all([
      api.get<{ executions: Execution[] }>(`/v1/executions?conversationId=${id}`),
      api.get<{ messages: ChatLine[] }>(`/v1/conversations/${id}/messages`),
    ]);
    if (!res.ok) {
      if (res.status !== 404) entry('error', `Could not load this conversation: ${res.message}`);
      return;
    }
    const items: { ts: string; show: () => void }[] = [];
    const said = new Set<string>();
    for (const line of lines.ok ? lines.body.messages : []) {
      if (line.role === 'user') said.add(line.text.trim());
      items.push({
        ts: line.ts,
        show: () => {
          entry(line.role === 'user' ? 'user' : 'reply', line.text);
          if (line.role === 'user') rememberTitle(conversationId, line.text);
        },
      });
    }
    const timelines = await Promise.all(
      res.body.executions.map(async (execution) => ({
        execution,
        timeline: await api.get<{ events: TimelineFact[] }>(`/v1/executions/${encodeURIComponent(execution.executionId)}/events`),
      })),
    );
    for (const { execution, timeline } of timelines) {
      if (!timeline.ok) continue;
      const answers = new Map<string, Answer>();
      for (const { type, fact } of timeline.body.events)
        if (type === 'HILResponse') answers.set(String(fact.promptId), fact.payload as Answer);
      for (const { type, fact, ts } of timeline.body.events) {
        if (type === 'RunIntent' && fact.action === 'start') {
          const job = (fact.trigger as { payload?: { jobDescription?: unknown } } | undefined)?.payload?.jobDescription;
          if (typeof job === 'string' && !said.has(job.trim()))
            items.push({
              ts,
              show: () => {
                entry('user', job);
                rememberTitle(conversationId, job);
              },
            });
        } else if (type === 'HILPrompt') {
          const promptId = String(fact.promptId);
          const answer = answers.get(promptId);
          const prompt = fact as unknown as Prompt;
          if (answer)
            items.push({
              ts,
              show: () => {
                if (prompts.has(promptId)) return;
                prompts.set(promptId, { prompt, answered: true });
                log.append(answeredView(prompt, answer));
              },
            });
        } else if (type === 'ExecutionResult') {
          const output = fact.output as Record<string, unknown> | undefined;
          items.push({ ts, show: () => showResult(execution.executionId, String(fact.status), output, fact.error) });
        }
      }
    }
    items.sort((a, b) => Date.parse(a.ts) - Date.parse(b.ts));
    for (const item of items) item.show();
  }

  async function refreshPanel() {
    const res = await api.get<{ executions: Execution[] }>('/v1/executions');
    if (closed) return;
    if (!res.ok) {
      listed = null;
      drawn = '';
      panel.replaceChildren(h('p', { class: 'muted' }, `Your conversations could not be loaded: ${res.message}`));
      return;
    }
    listed = res.body.executions;
    drawPanel();
  }

  /** What the page knows of this conversation's executions ahead of the list: the panel says that. */
  function pageKnows(): PageKnows {
    const asking = new Set(waiting.keys());
    if (pending && !prompts.get(pending.promptId)?.answered) asking.add(pending.executionId);
    const answered = new Set([...prompts].filter(([, p]) => p.answered).map(([promptId]) => promptId));
    const phases = new Map<string, string>();
    for (const [executionId, state] of seen) if (state.phase) phases.set(executionId, state.phase);
    return { ended: live, asking, answered, phases };
  }

  /** The side panel from the list last read, brought up to what the page knows (a prompt shown, answered, an end). */
  function drawPanel() {
    if (!listed || closed) return;
    const knows = pageKnows();
    const byConversation = new Map<string, (Execution & { phase: string | null })[]>();
    for (const one of listed) {
      if (!one.conversationId) continue;
      const e = { ...one, ...panelStatus(one, knows) };
      byConversation.set(one.conversationId, [...(byConversation.get(one.conversationId) ?? []), e]);
    }
    if (!byConversation.has(conversationId)) byConversation.set(conversationId, []);
    const names = titles();
    const key = JSON.stringify([
      [...byConversation].map(([cid, es]) => [cid, es.map((e) => [e.executionId, e.status, e.phase])]),
      names,
    ]);
    if (key === drawn) return;
    drawn = key;
    // a control of the panel that has focus is found again in the list drawn anew
    const focused = panel.contains(document.activeElement) ? document.activeElement : null;
    const focusKey = focused?.getAttribute('aria-label') ?? focused?.getAttribute('href');
    panel.replaceChildren(
      h(
        'ul',
        {},
        [...byConversation].map(([cid, executions]) =>
          h(
            'li',
            { class: cid === conversationId ? 'current' : '' },
            h(
              'a',
              { href: `#/chat/${encodeURIComponent(cid)}`, ...(cid === conversationId ? { 'aria-current': 'page' } : {}) },
              names[cid] ??
                (executions.length ? `Conversation of ${formatTime(executions.at(-1)?.createdAt)}` : 'This conversation (empty)'),
            ),
            executions.length
              ? h(
                  'ul',
                  { class: 'executions' },
                  executions.map((e) =>
                    h(
                      'li',
                      {},
                      h('span', { class: `status s-${e.status}` }, statusWords(e.status)),
                      e.phase && !ENDED.has(e.status) ? h('span', { class: 'muted' }, ` · ${e.phase}`) : null,
                      ENDED.has(e.status)
                        ? null
                        : h(
                            'button',
                            {
                              type: 'button',
                              class: 'small',
                              // (to the second: two started in one minute are two buttons a screen reader tells apart)
                              'aria-label': `Cancel the execution started ${formatTime(e.createdAt, true)}`,
                              onClick: () => void cancel(e.executionId),
                            },
                            'Cancel',
                          ),
                    ),
                  ),
                )
              : null,
          ),
        ),
      ),
    );
    if (focusKey)
      [...panel.querySelectorAll<HTMLElement>('a, button')]
        .find((el) => (el.getAttribute('aria-label') ?? el.getAttribute('href')) === focusKey)
        ?.focus();
    // the list drawn above the message box moves it down: on a narrow screen it is brought back into view
    if (document.activeElement === message) message.scrollIntoView({ block: 'nearest' });
  }

  async function cancel(executionId: string) {
    panelAlert.replaceChildren();
    const res = await api.post(`/v1/executions/${encodeURIComponent(executionId)}/cancel`);
    if (!res.ok) panelAlert.replaceChildren(h('p', { role: 'alert', class: 'alert' }, `Could not cancel: ${res.message}`));
    else panelAlert.replaceChildren(h('p', { role: 'status' }, 'Cancelling…'));
    await refreshPanel();
    // the button pressed is gone with the list redrawn: focus goes to the message box, not to the page's body
    keepFocus(message);
  }

  function send(event: Event) {
    event.preventDefault();
    composerAlert.replaceChildren();
    const text = message.value.trim();
    const problem = messageProblem(text);
    if (problem) {
      // the text stays in the box, unsent: nothing goes to the log or the conversation's title
      composerAlert.replaceChildren(h('p', { role: 'alert', class: 'alert' }, problem));
      message.setAttribute('aria-invalid', 'true');
      message.focus();
      return;
    }
    message.removeAttribute('aria-invalid');
    if (!socket.send({ type: 'message', text })) {
      composerAlert.replaceChildren(
        h('p', { role: 'alert', class: 'alert' }, 'Not connected to hireloop: your message was not sent. Reconnecting…'),
      );
      return;
    }
    entry('user', h('p', {}, text));
    rememberTitle(conversationId, text);
    message.value = '';
    setTimeout(() => void refreshPanel(), 1_000);
  }

  message.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      (event.currentTarget as HTMLTextAreaElement).form?.requestSubmit();
    }
  });

  const element = h(
    'div',
    { class: 'chat-layout' },
    h(
      'aside',
      { class: 'side', 'aria-label': 'Your conversations' },
      h('h2', {}, 'Conversations'),
      h('a', { href: `#/chat/${crypto.randomUUID()}`, class: 'button' }, 'New conversation'),
      panelAlert,
      panel,
    ),
    h(
      'main',
      { class: 'conversation' },
      h('h1', { class: 'sr-only' }, 'Chat with hireloop'),
      link,
      log,
      progress.element,
      promptHolder,
      employeeHolder,
      h(
        'form',
        { class: 'composer', onSubmit: send, 'aria-label': 'Write to hireloop' },
        h('label', { for: message.id }, 'Message'),
        message,
        h('p', { id: 'message-hint', class: 'muted hint' }, 'Describe the job in your own words. Ctrl+Enter sends.'),
        composerAlert,
        h('button', { type: 'submit', class: 'primary' }, 'Send'),
      ),
    ),
  );

  // connected at once, so that a line written while the transcript loads is sent as soon as it can be
  const socket = new ChatSocket(api.token, conversationId, (frame) => (early ? early.push(frame) : onFrame(frame)), onLink);

  void (async () => {
    entry(
      'system',
      h('p', {}, `Hello ${userId}. Describe a job and hireloop designs a digital employee for it, asking only what it must.`),
    );
    await loadHistory();
    void refreshPanel();
    const waiting = early ?? [];
    early = null;
    for (const frame of waiting) onFrame(frame);
    if (socket.open) void catchUp();
  })();

  return {
    element,
    conversationId,
    close() {
      closed = true;
      socket.close();
    },
    focus: () => message.focus(),
  };
}
