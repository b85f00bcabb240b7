/**
 * graph-creator's client of the Connect Hub (ARCHITECTURE §8a): an org's view of the catalog, cached
 * per org and revalidated by ETag on every call, so a change of the org's connections (or of the
 * catalog) is seen on the very next call while an unchanged view costs a 304 and no body. A hub that
 * is briefly away (no answer, a 5xx) is asked again with backoff; meanwhile the last good view is
 * served, so a creation does not fail because the hub restarted. The items of a view are held once
 * for every org whose view has the same content (`shared.ts`); an org keeps only its ETag and which
 * providers it connected.
 */

import type { Catalog } from '@hireloop/analyst';
import { type ErrorCode, ErrorCodes, HireloopError, isPermanent, type Logger, signToken } from '@hireloop/platform';
import { CapabilityList, type CapabilityView, checker, TriggerList, type TriggerView } from '@hireloop/schemas';
import type { TSchema } from '@sinclair/typebox';
import pRetry from 'p-retry';
import { markedList, sharedList, unmarked } from './shared';

export const DEFAULT_CONNECT_HUB_URL = 'http://127.0.0.1:8085';

/** `CONNECT_HUB_URL`, or the hub's default address. */
export const connectHubUrl = (env: Record<string, string | undefined> = process.env): string =>
  env.CONNECT_HUB_URL || DEFAULT_CONNECT_HUB_URL;

export interface ConnectHubClientOptions {
  /** the hub's base URL (`connectHubUrl()`) */
  baseUrl?: string;
  /** the HS256 secret the hub verifies tokens with (platform `loadJwtSecret()`) */
  secret: string;
  /** per request; a hub that does not answer in time is UNAVAILABLE */
  timeoutMs?: number;
  /** orgs whose views are kept; the least recently used go first */
  maxOrgs?: number;
  fetch?: typeof fetch;
  now?: () => number;
  /** attempts after the first when the hub is away (no answer or a 5xx) */
  retries?: number;
  /** backoff of the first retry in ms (doubles each time) */
  retryDelayMs?: number;
  log?: Pick<Logger, 'warn'>;
}

export interface ConnectHubStats {
  /** 200s: a view fetched with its body */
  fetched: number;
  /** 304s: a cached view confirmed current */
  notModified: number;
  /** the hub was away and the last good view was served instead */
  servedStale: number;
}

type Unmarked<T> = Omit<T, 'connected'>;

/** An org's view: the shared items, and the providers of those the org has connected (sorted). */
interface Cached<T> {
  etag: string;
  items: readonly Unmarked<T>[];
  connected: readonly string[];
}

/** One of the hub's two catalog views: where it is and how to read its items. */
interface ViewKind<T> {
  path: 'capabilities' | 'triggers';
  schema: TSchema;
  items: (body: unknown) => T[];
}
const CAPABILITIES: ViewKind<CapabilityView> = {
  path: 'capabilities',
  schema: CapabilityList,
  items: (body) => (body as CapabilityList).capabilities,
};
const TRIGGERS: ViewKind<TriggerView> = {
  path: 'triggers',
  schema: TriggerList,
  items: (body) => (body as TriggerList).triggers,
};

interface OrgCache {
  views: Map<ViewKind<unknown>['path'], Cached<{ providerId: string; connected: boolean }>>;
  catalog?: { key: string; value: Catalog };
}

const sortedUnique = (values: Iterable<string>): string[] => [...new Set(values)].sort();

/** A view as the client holds it: the items shared across orgs, the org's connected providers apart. */
function cachedView<T extends { providerId: string; connected: boolean }>(etag: string, items: readonly T[]): Cached<T> {
  return {
    etag,
    items: sharedList(items.map((item) => unmarked(item) as Unmarked<T>)),
    connected: sortedUnique(items.filter((item) => item.connected).map((item) => item.providerId)),
  };
}

const catalogOf = (capabilities: Cached<CapabilityView>, triggers: Cached<TriggerView>): Catalog => ({
  capabilities: capabilities.items as Catalog['capabilities'],
  triggers: triggers.items as Catalog['triggers'],
  connected: sortedUnique([...capabilities.connected, ...triggers.connected]),
});

/** Who the hub sees calling: graph-creator itself, acting for the org it asks about. */
const SERVICE_PRINCIPAL = 'service:graph-creator';
const TOKEN_TTL_MS = 10 * 60_000;

const statusCodes = new Map<number, ErrorCode>(
  (Object.entries(ErrorCodes) as [ErrorCode, { status: number }][])
    .filter(([, e]) => e.status < 500)
    .map(([code, e]) => [e.status, code]),
);

/** The org's catalog view in the analyst's shape: every item, and the providers the org has connected. */
export const toCatalog = (capabilities: readonly CapabilityView[], triggers: readonly TriggerView[]): Catalog =>
  catalogOf(cachedView('', capabilities), cachedView('', triggers));

export class ConnectHubClient {
  readonly stats: ConnectHubStats = { fetched: 0, notModified: 0, servedStale: 0 };
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly maxOrgs: number;
  private readonly fetch: typeof fetch;
  private readonly now: () => number;
  private readonly orgs = new Map<string, OrgCache>();
  private readonly tokens = new Map<string, { token: string; renewAt: number }>();

  constructor(private readonly options: ConnectHubClientOptions) {
    this.baseUrl = (options.baseUrl ?? connectHubUrl()).replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.maxOrgs = options.maxOrgs ?? 1_000;
    this.fetch = options.fetch ?? globalThis.fetch;
    this.now = options.now ?? Date.now;
  }

  /** Every capability of the catalog, each marked with whether the org has connected its provider. */
  async capabilities(orgId: string): Promise<readonly CapabilityView[]> {
    const view = await this.view(orgId, CAPABILITIES);
    return markedList(view.items, view.connected) as readonly CapabilityView[];
  }

  /** Every trigger of the catalog, each marked with whether the org has connected its provider. */
  async triggers(orgId: string): Promise<readonly TriggerView[]> {
    const view = await this.view(orgId, TRIGGERS);
    return markedList(view.items, view.connected) as readonly TriggerView[];
  }

  /** The org's catalog `{capabilities, triggers, connected}`; the same object while nothing changed. */
  async catalog(orgId: string): Promise<Catalog> {
    let [capabilities, triggers] = await Promise.all([this.view(orgId, CAPABILITIES), this.view(orgId, TRIGGERS)]);
    // Both views carry the same versions; different ETags mean a change landed between the two requests.
    if (capabilities.etag !== triggers.etag) {
      [capabilities, triggers] = await Promise.all([this.view(orgId, CAPABILITIES), this.view(orgId, TRIGGERS)]);
    }
    const cache = this.cacheOf(orgId);
    const key = `${capabilities.etag} ${triggers.etag}`;
    if (!capabilities.etag || !triggers.etag) return catalogOf(capabilities, triggers);
    if (cache.catalog?.key !== key) {
      cache.catalog = { key, value: catalogOf(capabilities, triggers) };
    }
    return cache.catalog.value;
  }

  /** Forgets every cached view (the next call of each org fetches bodies again). */
  clear(): void {
    this.orgs.clear();
  }

  private cacheOf(orgId: string): OrgCache {
    let cache = this.orgs.get(orgId);
    if (cache) {
      this.orgs.delete(orgId); // re-inserted: the Map's order is least recently used first
    } else {
      cache = { views: new Map() };
    }
    this.orgs.set(orgId, cache);
    while (this.orgs.size > this.maxOrgs) {
      const oldest = this.orgs.keys().next().value as string;
      this.orgs.delete(oldest);
      this.tokens.delete(oldest);
    }
    return cache;
  }

  private tokenFor(orgId: string): string {
    const now = this.now();
    const held = this.tokens.get(orgId);
    if (held && held.renewAt > now) return held.token;
    const token = signToken(
      { userId: SERVICE_PRINCIPAL, orgId, role: 'service' },
      this.options.secret,
      `${TOKEN_TTL_MS / 1000}s`,
    );
    this.tokens.set(orgId, { token, renewAt: now + TOKEN_TTL_MS / 2 });
    return token;
  }

  /** The view, asked again with backoff while the hub is away; past that, the last good view if there is one. */
  private async view<T extends { providerId: string; connected: boolean }>(orgId: string, kind: ViewKind<T>): Promise<Cached<T>> {
    const cached = this.cacheOf(orgId).views.get(kind.path) as Cached<T> | undefined;
    try {
      return await pRetry(() => this.fetchView(orgId, kind, cached), {
        retries: cached ? 0 : (this.options.retries ?? 4),
        minTimeout: this.options.retryDelayMs ?? 200,
        factor: 2,
        shouldRetry: ({ error }) => !isPermanent(error),
      });
    } catch (error) {
      if (!cached || isPermanent(error)) throw error;
      this.stats.servedStale += 1;
      this.options.log?.warn({ err: error, orgId, view: kind.path }, 'Connect Hub away: serving the last good view');
      return cached;
    }
  }

  private async fetchView<T extends { providerId: string; connected: boolean }>(
    orgId: string,
    kind: ViewKind<T>,
    cached: Cached<T> | undefined,
  ): Promise<Cached<T>> {
    const url = `${this.baseUrl}/v1/${kind.path}?orgId=${encodeURIComponent(orgId)}`;
    let res: Response;
    try {
      res = await this.fetch(url, {
        headers: {
          authorization: `Bearer ${this.tokenFor(orgId)}`,
          accept: 'application/json',
          ...(cached ? { 'if-none-match': cached.etag } : {}),
        },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new HireloopError(
        'UNAVAILABLE',
        `the Connect Hub at ${this.baseUrl} does not answer: ${(error as Error).message}`,
        { url },
        { cause: error },
      );
    }
    if (res.status === 304 && cached) {
      await res.body?.cancel();
      this.stats.notModified += 1;
      return cached;
    }
    if (res.status !== 200) throw await this.failure(res, url);

    const body: unknown = await res.json();
    if (!checker(kind.schema).Check(body)) {
      throw new HireloopError('INTERNAL', `the Connect Hub answered ${url} with a body that breaks its contract`, { url });
    }
    this.stats.fetched += 1;
    const etag = res.headers.get('etag');
    const fresh = cachedView(etag ?? '', kind.items(body));
    // Without an ETag there is nothing to revalidate with: serve it, keep nothing.
    if (etag) this.cacheOf(orgId).views.set(kind.path, fresh as Cached<{ providerId: string; connected: boolean }>);
    return fresh;
  }

  private async failure(res: Response, url: string): Promise<HireloopError> {
    const text = await res.text().catch(() => '');
    let message = text.slice(0, 500);
    try {
      const parsed = JSON.parse(text) as { message?: unknown };
      if (typeof parsed.message === 'string') message = parsed.message;
    } catch {
      // not JSON: keep the text
    }
    const code = res.status >= 500 ? 'UNAVAILABLE' : (statusCodes.get(res.status) ?? 'BAD_REQUEST');
    return new HireloopError(code, `the Connect Hub answered ${res.status} to ${url}: ${message}`, { url, status: res.status });
  }
}
