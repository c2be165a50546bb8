import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { SessionEventStore } from './session-event-store.js';

const message = (id: number, pad = ''): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: { pad } });

async function replay(store: SessionEventStore, after: string): Promise<{ streamId: string; sent: Array<[string, JSONRPCMessage]> }> {
  const sent: Array<[string, JSONRPCMessage]> = [];
  const streamId = await store.replayEventsAfter(after, { send: async (eventId, sentMessage) => void sent.push([eventId, sentMessage]) });
  return { streamId, sent };
}

describe('SessionEventStore', () => {
  it('replays the events of the same stream after the last one seen, in order, without priming events', async () => {
    const store = new SessionEventStore();
    const priming = await store.storeEvent('a', {} as JSONRPCMessage);
    const first = await store.storeEvent('a', message(1));
    await store.storeEvent('b', message(2));
    const third = await store.storeEvent('a', message(3));
    expect(await store.getStreamIdForEventId(first)).toBe('a');
    expect(await replay(store, priming)).toEqual({ streamId: 'a', sent: [[first, message(1)], [third, message(3)]] });
    expect(await replay(store, third)).toEqual({ streamId: 'a', sent: [] });
  });

  it('forgets the oldest events past its count or byte budget, and then knows nothing after them', async () => {
    const byCount = new SessionEventStore(2);
    const dropped = await byCount.storeEvent('a', message(1));
    await byCount.storeEvent('a', message(2));
    await byCount.storeEvent('a', message(3));
    expect(await byCount.getStreamIdForEventId(dropped)).toBeUndefined();
    expect((await replay(byCount, dropped)).streamId).toBe('');

    const byBytes = new SessionEventStore(100, 200);
    const old = await byBytes.storeEvent('a', message(1, 'x'.repeat(150)));
    const newest = await byBytes.storeEvent('a', message(2, 'y'.repeat(150)));
    expect(await byBytes.getStreamIdForEventId(old)).toBeUndefined();
    expect(await byBytes.getStreamIdForEventId(newest)).toBe('a');
  });
});
