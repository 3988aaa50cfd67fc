import type { SampleFunction } from '@svc/discovery';
import type { ToolContext } from './tool-context.js';

/**
 * The calling client's model as a sample function, when the client declared sampling. The
 * function is built per call: the client that asks is the client whose model answers.
 */
export function clientSampling(context: ToolContext): SampleFunction | undefined {
  const lowLevel = context.server.server;
  if (lowLevel.getClientCapabilities()?.sampling === undefined) return undefined;
  return async (prompt) => {
    const reply = await lowLevel.createMessage(
      {
        systemPrompt: prompt.systemPrompt,
        messages: prompt.messages.map((message) => ({
          role: message.role,
          content: { type: 'text' as const, text: message.content },
        })),
        maxTokens: prompt.maxTokens,
        includeContext: 'none',
      },
      // A model may take a while to write twenty cases.
      { timeout: 5 * 60_000 },
    );
    const content = reply.content;
    const parts = Array.isArray(content) ? content : [content];
    return parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
  };
}
