import { describe, expect, it } from 'vitest';
import type { NewMcpSession } from '../mcp-session-repository.js';
import type { McpSessionStore } from '../ports.js';

const SESSION_ID = '0b7a5a52-4a44-4e0e-9a47-3f3d2f0c1a01';
const OTHER_ID = '0b7a5a52-4a44-4e0e-9a47-3f3d2f0c1a02';
const T0 = new Date('2026-11-26T10:00:00.000Z');
const at = (seconds: number): Date => new Date(T0.getTime() + seconds * 1000);

/** What an initialize records about a session, besides its id. */
const INITIALIZED: Omit<NewMcpSession, 'id'> = {
  callerKey: '198.51.100.7',
  ownerEmail: 'owner@acme.example',
  protocolVersion: '2025-06-18',
  clientInfo: { name: 'claude-code', version: '2.1.0' },
  clientCapabilities: { elicitation: {}, roots: { listChanged: true } },
  createdAt: T0.toISOString(),
};

function session(id: string, overrides: Partial<NewMcpSession> = {}): NewMcpSession {
  return { id, ...INITIALIZED, ...overrides };
}

/** The MCP sessions port's contract: two handles on one store stand for two instances. */
export function mcpSessionStoreContract(name: string, open: () => Promise<{ first: McpSessionStore; second: McpSessionStore }>): void {
  describe(`MCP sessions port contract: ${name}`, () => {
    it('finds a session opened on one instance on the other, with what its initialize said, until it is idle too long', async () => {
      const { first, second } = await open();
      await first.insertSession(session(SESSION_ID));
      await first.insertSession(session(OTHER_ID, { ownerEmail: undefined, clientCapabilities: {} }));
      expect(await second.findOpenSession(SESSION_ID, at(-600))).toEqual({ id: SESSION_ID, ...INITIALIZED, lastSeenAt: T0.toISOString(), endedAt: undefined });
      expect(await second.findOpenSession(OTHER_ID, at(-600))).toMatchObject({ ownerEmail: undefined, clientCapabilities: {} });
      // Last seen exactly at the cutoff is still open; one millisecond later it is not.
      expect(await second.findOpenSession(SESSION_ID, T0)).toBeDefined();
      expect(await second.findOpenSession(SESSION_ID, new Date(T0.getTime() + 1))).toBeUndefined();
      expect(await second.findOpenSession('0b7a5a52-4a44-4e0e-9a47-3f3d2f0c1aff', at(-600))).toBeUndefined();
      // An id is stored once.
      await expect(second.insertSession(session(SESSION_ID, { callerKey: '203.0.113.8' }))).rejects.toThrow();
      expect((await first.getSession(SESSION_ID))?.callerKey).toBe('198.51.100.7');
    });

    it('keeps a used session open (the later time wins) and refuses to touch one gone idle', async () => {
      const { first, second } = await open();
      await first.insertSession(session(SESSION_ID));
      expect(await second.touchSession(SESSION_ID, at(300), at(-600))).toBe(true);
      // A touch that arrives late from the other instance never moves the time back.
      expect(await first.touchSession(SESSION_ID, at(100), at(-500))).toBe(true);
      expect((await first.getSession(SESSION_ID))?.lastSeenAt).toBe(at(300).toISOString());
      expect(await first.findOpenSession(SESSION_ID, at(300))).toBeDefined();
      // Idle past the cutoff: the touch changes nothing, the session is not found open.
      expect(await second.touchSession(SESSION_ID, at(1000), at(301))).toBe(false);
      expect((await first.getSession(SESSION_ID))?.lastSeenAt).toBe(at(300).toISOString());
      expect(await first.findOpenSession(SESSION_ID, at(301))).toBeUndefined();
      expect(await first.touchSession('0b7a5a52-4a44-4e0e-9a47-3f3d2f0c1aff', at(1), at(-600))).toBe(false);
    });

    it('ends a session once, from either instance, after which it is neither found open nor touched', async () => {
      const { first, second } = await open();
      await first.insertSession(session(SESSION_ID));
      await first.insertSession(session(OTHER_ID));
      const ends = await Promise.all([first.endSession(SESSION_ID, at(10)), second.endSession(SESSION_ID, at(11))]);
      expect(ends.filter(Boolean)).toHaveLength(1);
      expect(await first.findOpenSession(SESSION_ID, at(-600))).toBeUndefined();
      expect(await second.touchSession(SESSION_ID, at(12), at(-600))).toBe(false);
      expect(await second.endSession(SESSION_ID, at(13))).toBe(false);
      expect(await second.endSession('0b7a5a52-4a44-4e0e-9a47-3f3d2f0c1aff', at(13))).toBe(false);
      expect((await second.getSession(SESSION_ID))?.endedAt).toMatch(/^2026-11-26T10:00:1[01]\.000Z$/u);
      // The other session is untouched.
      expect(await second.findOpenSession(OTHER_ID, at(-600))).toBeDefined();
    });

    it('deletes the sessions ended or last seen before a moment, and only those', async () => {
      const { first, second } = await open();
      await first.insertSession(session(SESSION_ID));
      await first.insertSession(session(OTHER_ID));
      const third = '0b7a5a52-4a44-4e0e-9a47-3f3d2f0c1a03';
      await first.insertSession(session(third, { createdAt: at(500).toISOString() }));
      await first.touchSession(OTHER_ID, at(400), at(-600));
      await first.touchSession(third, at(700), at(-600));
      await first.endSession(third, at(550));
      // SESSION_ID last seen at 0, OTHER_ID at 400, third last seen at 700 but ended at 550.
      expect(await second.deleteSessionsBefore(at(200))).toBe(1);
      expect(await second.getSession(SESSION_ID)).toBeUndefined();
      expect(await second.getSession(OTHER_ID)).toBeDefined();
      expect(await second.getSession(third)).toBeDefined();
      expect(await second.deleteSessionsBefore(at(600))).toBe(2);
      expect(await first.getSession(OTHER_ID)).toBeUndefined();
      expect(await first.getSession(third)).toBeUndefined();
    });
  });
}
