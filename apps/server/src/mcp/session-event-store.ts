import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Events kept per session for a client that reconnects with Last-Event-ID; older ones are dropped. */
export const DEFAULT_EVENTS_PER_SESSION = 200;
/** Bytes of JSON kept per session, so a thousand open sessions stay within a bounded amount of memory. */
export const DEFAULT_EVENT_BYTES_PER_SESSION = 128 * 1024;

interface StoredEvent {
  eventId: EventId;
  streamId: StreamId;
  message: JSONRPCMessage;
  bytes: number;
}

/**
 * The events of one session, in memory and bounded, so a client whose SSE stream broke (a long
 * get_visibility_check wait through a proxy that cuts idle connections) resumes where it was. It dies
 * with the session: sessions live in this process only.
 */
export class SessionEventStore implements EventStore {
  private sequence = 0;
  private readonly events: StoredEvent[] = [];
  private readonly byId = new Map<EventId, StoredEvent>();
  private bytes = 0;

  constructor(
    private readonly maxEvents: number = DEFAULT_EVENTS_PER_SESSION,
    private readonly maxBytes: number = DEFAULT_EVENT_BYTES_PER_SESSION,
  ) {}

  /** Keeps an event and returns its id (the session's sequence number, so ids sort in sending order). */
  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    this.sequence += 1;
    const event: StoredEvent = { eventId: String(this.sequence), streamId, message, bytes: JSON.stringify(message).length };
    this.events.push(event);
    this.byId.set(event.eventId, event);
    this.bytes += event.bytes;
    // The newest event always stays, even when it alone is over the byte budget.
    while (this.events.length > 1 && (this.events.length > this.maxEvents || this.bytes > this.maxBytes)) {
      const dropped = this.events.shift();
      if (dropped === undefined) break;
      this.byId.delete(dropped.eventId);
      this.bytes -= dropped.bytes;
    }
    return event.eventId;
  }

  /** The stream an event was sent on; undefined for an unknown or dropped event. */
  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.byId.get(eventId)?.streamId;
  }

  /** Sends the events of the same stream after `lastEventId`, in order; returns the stream id. */
  async replayEventsAfter(lastEventId: EventId, { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> }): Promise<StreamId> {
    const last = this.byId.get(lastEventId);
    if (last === undefined) return '';
    const after = Number(last.eventId);
    for (const event of [...this.events]) {
      // Priming events carry no message (an empty object) and are not replayed.
      if (event.streamId !== last.streamId || Number(event.eventId) <= after || !('jsonrpc' in event.message)) continue;
      await send(event.eventId, event.message);
    }
    return last.streamId;
  }
}
