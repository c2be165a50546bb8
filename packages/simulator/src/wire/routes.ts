import { anthropicMessages } from './anthropic.js';
import { geminiGenerateContent } from './gemini.js';
import { openaiChat, openaiResponses } from './openai.js';
import type { WireFormat } from './types.js';

export interface MatchedRoute {
  readonly format: WireFormat;
  /** Gemini names the model in the path. */
  readonly modelFromPath: string | undefined;
  /** Gemini streams through a different method name rather than a body flag. */
  readonly streamingPath: boolean;
}

const GEMINI_PATH = /^\/(?:v1beta|v1|v1alpha)\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/** The wire format that serves a POST to this path, if any. */
export function matchRoute(method: string, pathname: string): MatchedRoute | undefined {
  if (method !== 'POST') return undefined;
  if (pathname === '/v1/chat/completions') return { format: openaiChat, modelFromPath: undefined, streamingPath: false };
  if (pathname === '/v1/responses') return { format: openaiResponses, modelFromPath: undefined, streamingPath: false };
  if (pathname === '/v1/messages') return { format: anthropicMessages, modelFromPath: undefined, streamingPath: false };
  const gemini = GEMINI_PATH.exec(pathname);
  if (gemini?.[1]) {
    return { format: geminiGenerateContent, modelFromPath: decodeURIComponent(gemini[1]), streamingPath: gemini[2] === 'streamGenerateContent' };
  }
  return undefined;
}

/** The vendor whose error shape an unknown path should get: Gemini for /v1beta, Anthropic when its version header is sent. */
export function formatForUnknownPath(pathname: string, headers: Record<string, string>): WireFormat {
  if (/^\/v1(?:beta|alpha)\//.test(pathname)) return geminiGenerateContent;
  if (headers['anthropic-version'] !== undefined) return anthropicMessages;
  return openaiChat;
}
