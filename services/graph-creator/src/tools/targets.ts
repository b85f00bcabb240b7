/**
 * Where an employee's own HTTP calls (`http.request`, `webhook.send`) may not go: the platform itself. A run's
 * arguments come from its spec and its trigger's event, so without this any member of an org could have the worker
 * call hireloop's services, broker or database, or a cloud's metadata service, and read the answer in the run's
 * effects. Refused: a loopback address on a port of the platform (its services, the Connect Hub, Kafka,
 * Postgres), any of their configured addresses, and the link-local metadata address. The gateway's webhook path
 * stays open (one employee may start another's workflow, as any sender does, with its signature). Where services
 * reach each other by name, `HTTP_DENY_HOSTS` names them. A name is checked again by each address it resolves to when
 * the connection is made (`refusedAddress`, from the HTTP connectors' DNS lookup), so that a name of anyone's choosing
 * that resolves to a refused address is refused too.
 */

/** The platform's own addresses, as `host:port` (a loopback host as `loopback`), from its configuration. */
export function ownEndpoints(env: Record<string, string | undefined> = process.env): ReadonlySet<string> {
  const own = new Set<string>();
  const add = (host: string, port: string | number): void => {
    own.add(`${isLoopback(host) ? 'loopback' : host.toLowerCase()}:${port}`);
  };
  const ports: Record<string, number> = {
    TRIGGER_ROUTER_PORT: 8081,
    SUPERVISOR_PORT: 8082,
    GRAPH_CREATOR_PORT: 8083,
    EVENT_STORE_PORT: 8084,
    CONNECT_HUB_PORT: 8085,
    KAFKA_PORT: 9092,
    KAFKA_CONTROLLER_PORT: 9093,
  };
  for (const [name, port] of Object.entries(ports)) add('127.0.0.1', Number(env[name]) || port);
  add('127.0.0.1', 5432);
  for (const raw of [env.CONNECT_HUB_URL, env.DATABASE_URL]) {
    if (!raw) continue;
    try {
      const url = new URL(raw);
      add(url.hostname, url.port || (url.protocol.startsWith('postgres') ? 5432 : url.protocol === 'https:' ? 443 : 80));
    } catch {
      // not a URL: nothing to add
    }
  }
  for (const broker of (env.KAFKA_BROKERS ?? '').split(',')) {
    const [host, port] = broker.trim().split(/:(?=\d+$)/);
    if (host && port) add(host, port);
  }
  return own;
}

/** The gateway's port: only its webhook path may be called. */
export const gatewayPort = (env: Record<string, string | undefined> = process.env): number => Number(env.GATEWAY_PORT) || 8080;

/**
 * Hosts of the platform refused on every port (but the gateway's webhooks): `HTTP_DENY_HOSTS`, comma-separated —
 * where the services reach each other by name (the compose file names them), the worker knows only its own address.
 */
export const deniedHosts = (env: Record<string, string | undefined> = process.env): ReadonlySet<string> =>
  new Set(
    (env.HTTP_DENY_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  );

const isLoopback = (host: string): boolean => {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    /^127\.\d+\.\d+\.\d+$/.test(h) ||
    h === '0.0.0.0' ||
    h === '::1' ||
    h === '::' ||
    // IPv4 written inside IPv6: ::ffff:127.0.0.1, ::ffff:7f00:1, ::ffff:0:0 (URL writes them in hex)
    /^::ffff:(?:127\.|7f[0-9a-f]{2}:|0\.0\.0\.0$|0:0$)/.test(h)
  );
};

/** Link-local addresses (169.254.0.0/16, fe80::/10): where clouds answer for metadata and credentials. */
const isLinkLocal = (host: string): boolean =>
  /^169\.254\.\d+\.\d+$/.test(host) || /^::ffff:a9fe:/.test(host) || /^fe[89ab][0-9a-f]:/.test(host);

/** Why a call may not go to `url`, or undefined when it may. Pure. */
export function refusedTarget(
  url: URL,
  own: ReadonlySet<string>,
  gateway: number,
  denied: ReadonlySet<string> = new Set(),
): string | undefined {
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (isLinkLocal(host) || host === 'metadata.google.internal' || host === 'fd00:ec2::254')
    return `${host} is a link-local or cloud metadata address`;
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const hooks = port === gateway && url.pathname.startsWith('/v1/hooks/');
  if (denied.has(host) && !hooks) return `${url.host} is one of hireloop's own hosts`;
  const key = `${isLoopback(host) ? 'loopback' : host}:${port}`;
  if (own.has(key)) return `${url.host} is one of hireloop's own services`;
  if (isLoopback(host) && port === gateway && !hooks)
    return `${url.host}${url.pathname} is hireloop's gateway: only its webhooks (/v1/hooks/…) may be called`;
  return undefined;
}

/**
 * Why a call to `url` may not connect to `address`, one its host name resolved to, or undefined when it may: the
 * address is judged as the URL would be with the address written in it (same port, same path). Pure.
 */
export function refusedAddress(address: string, url: URL, refuse: (url: URL) => string | undefined): string | undefined {
  const at = new URL(url.href);
  at.hostname = address.includes(':') ? `[${address}]` : address;
  // (an address a URL cannot hold, "fe80::1%eth0", leaves the name in place: it cannot be judged, so it is refused)
  if (at.hostname === url.hostname && address !== url.hostname)
    return `${url.hostname} resolves to ${address}, an address that cannot be judged`;
  const refused = refuse(at);
  return refused === undefined ? undefined : `${url.hostname} resolves to ${address}: ${refused}`;
}
