import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Connector } from './connector';
import { httpConnector, webhookConnector } from './http';
import { sandboxConnector } from './sandbox';
import { deniedHosts, gatewayPort, ownEndpoints, refusedTarget } from './targets';

/** Which connector acts for each provider: real ones by name, the sandbox for every other. */
export class Connectors {
  private readonly byProvider: Map<string, Connector>;

  constructor(
    real: Record<string, Connector> = {},
    private readonly fallback: Connector = sandboxConnector,
  ) {
    this.byProvider = new Map(Object.entries(real));
  }

  for(providerId: string): Connector {
    return this.byProvider.get(providerId) ?? this.fallback;
  }

  /** Whether a provider runs in the sandbox. */
  sandboxed(providerId: string): boolean {
    return !this.byProvider.has(providerId);
  }

  /** The capabilities connectors bring beyond the catalog's. */
  extraCapabilities() {
    return [...this.byProvider.values()].flatMap((c) => c.capabilities ?? []);
  }
}

/** `CONNECTORS` parsed: `provider=module` pairs separated by commas (or a JSON object of the same). */
export function parseConnectorConfig(text: string | undefined): Record<string, string> {
  const value = (text ?? '').trim();
  if (!value) return {};
  if (value.startsWith('{')) {
    const parsed = JSON.parse(value) as unknown;
    if (!parsed || typeof parsed !== 'object' || Object.values(parsed).some((v) => typeof v !== 'string'))
      throw new Error('CONNECTORS as JSON must map provider ids to module specifiers');
    return parsed as Record<string, string>;
  }
  return Object.fromEntries(
    value.split(',').map((pair) => {
      const [provider, module] = pair.split('=').map((s) => s.trim());
      if (!provider || !module) throw new Error(`CONNECTORS: "${pair}" is not provider=module`);
      return [provider, module];
    }),
  );
}

const isConnector = (value: unknown): value is Connector =>
  !!value && typeof value === 'object' && typeof (value as Connector).call === 'function';

/**
 * The connectors of a worker: `http` and `webhook` real, every module named in `CONNECTORS` for its
 * provider (its default export a Connector, or a function of the environment returning one), the
 * sandbox for the rest. A path starts with `.` or `/` and is resolved from `cwd`; anything else is a
 * package name.
 */
export async function loadConnectors(
  env: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
): Promise<Connectors> {
  // the platform's own addresses are no target of an employee's calls (targets.ts)
  const own = ownEndpoints(env);
  const denied = deniedHosts(env);
  const refuse = (url: URL): string | undefined => refusedTarget(url, own, gatewayPort(env), denied);
  const real: Record<string, Connector> = { http: httpConnector({ refuse }), webhook: webhookConnector({ refuse }) };
  for (const [provider, specifier] of Object.entries(parseConnectorConfig(env.CONNECTORS))) {
    const url = /^[./]/.test(specifier) ? pathToFileURL(resolve(cwd, specifier)).href : specifier;
    const loaded = ((await import(url)) as { default?: unknown }).default;
    const connector = typeof loaded === 'function' ? await (loaded as (e: typeof env) => unknown)(env) : loaded;
    if (!isConnector(connector)) throw new Error(`CONNECTORS: ${specifier} does not export a connector (an object with call())`);
    real[provider] = connector;
  }
  return new Connectors(real);
}
