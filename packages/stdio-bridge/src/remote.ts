import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { toRemoteUnavailable, wasNotDelivered } from './errors.js';
import type { Log } from './log.js';

export interface RemoteConnectionOptions {
  url: URL;
  /** Who the bridge says it is to the remote (and in its User-Agent). */
  clientInfo: { name: string; version: string };
  /** How long the initialize handshake with the remote may take. */
  connectTimeoutMs: number;
  /** Extra headers for every request (--header). */
  headers?: Readonly<Record<string, string>>;
  /** Called when the remote says its tools changed, or when it comes back after being unreachable. */
  onToolsChanged: () => void;
  log: Log;
}

/**
 * One MCP session with the remote, opened on first use and opened again after it fails, so a
 * remote that was down or restarted is picked up by the next call without restarting the bridge.
 */
export class RemoteConnection {
  readonly url: string;
  #current: Promise<Client> | undefined;
  #client: Client | undefined;
  #wasUnavailable = false;
  #closed = false;

  constructor(private readonly options: RemoteConnectionOptions) {
    this.url = options.url.href;
  }

  /** The connected client; throws RemoteUnavailableError when the remote cannot be used. */
  connect(): Promise<Client> {
    if (this.#closed) return Promise.reject(new Error('The bridge is shutting down.'));
    if (this.#current === undefined) {
      const attempt = this.#open();
      this.#current = attempt;
      attempt.then(
        (client) => {
          if (this.#current === attempt) this.#client = client;
          if (this.#wasUnavailable) {
            this.#wasUnavailable = false;
            // A client that listed tools while the remote was down holds an empty or failed list.
            this.options.onToolsChanged();
          }
        },
        () => {
          this.#wasUnavailable = true;
          if (this.#current === attempt) this.#current = undefined;
        },
      );
    }
    return this.#current;
  }

  /**
   * Runs one request against the remote. A connection failure drops the session; the request is
   * sent once more on a fresh session when `retry` says the remote cannot have acted on it.
   */
  async run<T>(request: (client: Client) => Promise<T>, retry: (error: unknown) => boolean = wasNotDelivered): Promise<T> {
    const client = await this.connect();
    try {
      return await request(client);
    } catch (error) {
      // A JSON-RPC error is the remote's answer: the session is fine and the caller gets it as is.
      if (error instanceof McpError) throw error;
      this.#drop(client);
      if (!retry(error)) throw toRemoteUnavailable(error, this.url);
      this.options.log.info(`session with ${this.url} lost (${describe(error)}); opening a new one`);
      const fresh = await this.connect();
      try {
        return await request(fresh);
      } catch (secondError) {
        if (secondError instanceof McpError) throw secondError;
        this.#drop(fresh);
        throw toRemoteUnavailable(secondError, this.url);
      }
    }
  }

  /** Ends the session with the remote (DELETE), best effort. */
  async close(): Promise<void> {
    this.#closed = true;
    const current = this.#current;
    this.#current = undefined;
    this.#client = undefined;
    const client = await current?.catch(() => undefined);
    if (client === undefined) return;
    const transport = client.transport;
    if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => undefined);
    await client.close().catch(() => undefined);
  }

  async #open(): Promise<Client> {
    const { url, clientInfo, connectTimeoutMs, log } = this.options;
    const client = new Client(clientInfo, { capabilities: {} });
    client.onerror = (error) => log.debug(`remote: ${describe(error)}`);
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.options.onToolsChanged());
    const transport = new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { ...this.options.headers, 'user-agent': `${clientInfo.name}/${clientInfo.version}` } },
    });
    try {
      await client.connect(transport, { timeout: connectTimeoutMs });
    } catch (error) {
      await client.close().catch(() => undefined);
      const failure = toRemoteUnavailable(error, this.url);
      log.warn(failure.message);
      throw failure;
    }
    const server = client.getServerVersion();
    log.info(`connected to ${this.url} (${server?.name ?? 'unknown server'} ${server?.version ?? ''}, session ${transport.sessionId ?? 'none'})`.replace(' ,', ','));
    return client;
  }

  #drop(client: Client): void {
    // Another request may already have replaced a broken session; keep the newer one.
    if (this.#client === client) {
      this.#current = undefined;
      this.#client = undefined;
    }
    void client.close().catch(() => undefined);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
