/**
 * What the gateway asks the Connect Hub (ARCHITECTURE §8a) over HTTP: an org's connected providers
 * (activation turns off the workflows waiting for others), its triggers' schemas (a webhook body
 * must satisfy the trigger's event schema) and the catalog's tools (a policy may only name those). Signs its own short-lived service token per org, as
 * graph-creator's client does; views are kept a few seconds per org for webhooks, read afresh for an activation.
 */
import { HireloopError, signToken } from '@hireloop/platform';
import type { CatalogCapability } from '@hireloop/schemas';

export const DEFAULT_CONNECT_HUB_URL = 'http://127.0.0.1:8085';

export interface HubTrigger {
  id: string;
  providerId: string;
  paramsSchema?: Record<string, unknown>;
  eventSchema?: Record<string, unknown>;
}

export interface OrgView {
  /** providers the org has connected */
  providers: string[];
  triggers: HubTrigger[];
}

/** A tool of the catalog as a policy names it: its id, provider and arguments (the hub serves the whole capability). */
export type HubCapability = Pick<CatalogCapability, 'id' | 'providerId' | 'inputSchema'>;

/** The port: the HTTP client below, or a fake in tests. */
export interface ConnectHub {
  /** `fresh`: read now, not a view kept from the last few seconds (an activation sees a provider just connected) */
  orgView(orgId: string, options?: { fresh?: boolean }): Promise<OrgView>;
  /** every tool of the catalog in the org's view, connected or not (a policy may name a tool before its provider is connected) */
  capabilities(orgId: string): Promise<HubCapability[]>;
  /** drops what is kept of the org's view (its connections changed): the next `orgView` reads it anew */
  forget?(orgId: string): void;
}

export interface HttpConnectHubOptions {
  baseUrl: string;
  /** the HS256 secret the hub verifies tokens with */
  secret: string;
  timeoutMs?: number;
  /** how long an org's view is reused */
  ttlMs?: number;
  fetch?: typeof fetch;
  now?: () => number;
}

const SERVICE_PRINCIPAL = 'service:gateway';

export class HttpConnectHub implements ConnectHub {
  private readonly cache = new Map<string, { at: number; view: OrgView }>();
  constructor(private readonly options: HttpConnectHubOptions) {}

  async orgView(orgId: string, options: { fresh?: boolean } = {}): Promise<OrgView> {
    const now = (this.options.now ?? Date.now)();
    const cached = this.cache.get(orgId);
    if (cached && !options.fresh && now - cached.at < (this.options.ttlMs ?? 5_000)) return cached.view;
    const token = signToken({ userId: SERVICE_PRINCIPAL, orgId, role: 'service' }, this.options.secret, '60s');
    const [connections, triggers] = await Promise.all([
      this.get<{ providers: string[] }>(`/v1/orgs/${encodeURIComponent(orgId)}/connections`, token),
      this.get<{ triggers: HubTrigger[] }>(`/v1/triggers?orgId=${encodeURIComponent(orgId)}`, token),
    ]);
    const view = { providers: connections.providers, triggers: triggers.triggers };
    if (this.cache.size >= 1_000) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(orgId, { at: now, view });
    return view;
  }

  forget(orgId: string): void {
    this.cache.delete(orgId);
  }

  async capabilities(orgId: string): Promise<HubCapability[]> {
    const token = signToken({ userId: SERVICE_PRINCIPAL, orgId, role: 'service' }, this.options.secret, '60s');
    const answer = await this.get<{ capabilities: HubCapability[] }>(
      `/v1/capabilities?orgId=${encodeURIComponent(orgId)}`,
      token,
    );
    return answer.capabilities;
  }

  private async get<T>(path: string, token: string): Promise<T> {
    const doFetch = this.options.fetch ?? fetch;
    let response: Response;
    try {
      response = await doFetch(`${this.options.baseUrl}${path}`, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 5_000),
      });
    } catch (error) {
      throw new HireloopError('UNAVAILABLE', `the Connect Hub did not answer: ${(error as Error).message}`, undefined, {
        cause: error,
      });
    }
    if (!response.ok) throw new HireloopError('UNAVAILABLE', `the Connect Hub answered ${response.status} to ${path}`);
    return (await response.json()) as T;
  }
}
