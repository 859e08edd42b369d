/**
 * The SDK's requestState verify hook sees the request context (id, method, envelope) but not the tool call's
 * arguments. This module lets the hook see them anyway: a transport decorator records the name and arguments of
 * every tools/call that carries a string requestState, keyed by its JSON-RPC id, until that id is answered.
 */
import type { JSONRPCMessage, RequestId, Transport, TransportSendOptions } from '@modelcontextprotocol/server';

export interface ToolCall {
  readonly name: unknown;
  readonly arguments: unknown;
}

/** Calls in flight by id. An id seen twice while in flight is ambiguous and verifies as nothing. */
export class ToolCallArguments {
  readonly #inFlight = new Map<RequestId, ToolCall | 'ambiguous'>();

  observe(message: JSONRPCMessage): void {
    if (!('method' in message) || !('id' in message) || message.method !== 'tools/call') return;
    const params: unknown = message.params;
    if (params === null || typeof params !== 'object') return;
    const { name, arguments: args, requestState } = params as Record<string, unknown>;
    if (typeof requestState !== 'string') return;
    this.#inFlight.set(message.id, this.#inFlight.has(message.id) ? 'ambiguous' : { name, arguments: args });
  }

  /** The call with this id, removed; undefined if none (or an ambiguous id) was recorded. */
  take(id: RequestId): ToolCall | undefined {
    const call = this.#inFlight.get(id);
    this.#inFlight.delete(id);
    return call === 'ambiguous' ? undefined : call;
  }

  /** Forgets a call once it is answered, whether or not the hook ran (an unknown tool, say). */
  settle(message: JSONRPCMessage): void {
    if ('id' in message && ('result' in message || 'error' in message) && message.id !== undefined) {
      this.#inFlight.delete(message.id);
    }
  }

  get size(): number {
    return this.#inFlight.size;
  }
}

/** Passes everything through to `inner`, showing each inbound and outbound message to `calls` first. */
export class ArgumentRecordingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  constructor(
    private readonly inner: Transport,
    private readonly calls: ToolCallArguments,
    private readonly afterClose: () => void = () => {},
  ) {
    inner.onmessage = (message, extra) => {
      calls.observe(message);
      this.onmessage?.(message, extra);
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => {
      try {
        this.onclose?.();
      } finally {
        this.afterClose();
      }
    };
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.calls.settle(message);
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  setProtocolVersion = (version: string): void => {
    this.inner.setProtocolVersion?.(version);
  };
}
